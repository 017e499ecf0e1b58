/**
 * A checkbox bound to a boolean setting. It shows the requested state at once (optimistically)
 * while the engine saves, and falls back to the engine's value when the save ends, so a refused
 * change snaps back instead of leaving the box lying about the configuration.
 */
import { useState, type ReactNode } from 'react';

export function SettingSwitch({
  value,
  onSave,
  testId,
  children,
}: {
  value: boolean;
  onSave: (v: boolean) => Promise<unknown>;
  testId: string;
  children: ReactNode;
}) {
  const [pending, setPending] = useState<boolean | null>(null);
  return (
    <label>
      <input
        type="checkbox"
        checked={pending ?? value}
        disabled={pending !== null}
        aria-busy={pending !== null}
        data-testid={testId}
        onChange={async (e) => {
          const next = e.target.checked;
          setPending(next);
          try {
            await onSave(next);
          } finally {
            setPending(null);
          }
        }}
      />{' '}
      {children}
    </label>
  );
}
