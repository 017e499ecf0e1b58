/**
 * The models Cairn knows (GET /api/models), offered as suggestions for the model field, with
 * whether each is already on this computer or what it costs to download, so choosing one needs no
 * documentation. Any hub id or local folder can still be typed.
 */
import { useEffect, useState } from 'react';
import type { ModelInfo } from '../../../main/common/status';
import { api } from '../api/endpoints';
import { useEngine } from '../hooks/engine-context';

export const MODEL_CHOICES_ID = 'model-choices';

function note(m: ModelInfo): string {
  return m.builtin ? 'built in' : m.available ? 'on this computer' : `${m.size_mb} MB download`;
}

export function ModelChoices({ current, state }: { current: string; state: string }) {
  const { epoch } = useEngine();
  const [models, setModels] = useState<ModelInfo[]>([]);
  useEffect(() => {
    let live = true;
    // Suggestions only: without them the field still takes any id, so a failure stays quiet.
    api.models().then(
      (list) => live && setModels(list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [current, state, epoch]);
  return (
    <>
      <datalist id={MODEL_CHOICES_ID}>
        {models.map((m) => (
          <option key={m.id} value={m.id} label={`${m.dimensions} d · ${note(m)}`} />
        ))}
      </datalist>
      {models.length ? (
        <ul className="muted small model-choices" data-testid="model-choices">
          {models
            .filter((m) => m.id !== current)
            .map((m) => (
              <li key={m.id} data-available={m.available}>
                <code>{m.id}</code>: {note(m)}. {m.description}
              </li>
            ))}
        </ul>
      ) : null}
    </>
  );
}
