/**
 * A model that cannot load, said so that a person can act on it: JavaScript's own wording from
 * inside a library ("Cannot read properties of undefined (reading 'tokenizer_class')") becomes what
 * it means for the model's files, and placeholders in remedies are filled with the real folder.
 */
import { join } from 'node:path';
import { CairnError } from '../errors.js';

const JS_INTERNAL =
  /Cannot read propert(?:y|ies) of (?:undefined|null)(?: \(reading '([^']+)'\))?|is not a function|is not iterable|Unexpected token|JSON/;

export function humanLoadError(modelId: string, err: unknown, dataDir: string): CairnError {
  const typed = err instanceof CairnError ? err : null;
  const raw = err instanceof Error ? err.message : String(err);
  const fill = (text: string | undefined) =>
    text?.replace(/<dataDir>\/models\/<id>/g, join(dataDir, 'models', modelId)).replace(/<dataDir>/g, dataDir);
  const internal = JS_INTERNAL.exec(raw);
  // transformers.js reads a missing file's answer as an empty config: for a download that is a
  // model the hub does not have (or a hub that did not answer), not a broken model on disk.
  if (internal && typed && /could not be downloaded/.test(typed.message)) {
    return new CairnError(
      'dependency_unavailable',
      `The embedding model ${modelId} could not be downloaded: the Hugging Face hub has no complete model under that id, or it could not be reached.`,
      {
        remedy: `Check the id (owner/name, as on the hub), connect to the internet, or copy the model folder into ${join(dataDir, 'models', modelId)}.`,
        details: { model: modelId, cause: raw },
        cause: err,
      },
    );
  }
  if (internal) {
    const field = internal[1] ? ` (its configuration has no "${internal[1]}")` : '';
    return new CairnError(
      'dependency_unavailable',
      `The embedding model ${modelId} cannot be loaded: its files are incomplete or are not a transformers.js model${field}.`,
      {
        remedy: `Choose another model, or check that ${join(dataDir, 'models', modelId)} holds config.json, tokenizer.json, tokenizer_config.json and an onnx/ model file.`,
        details: { model: modelId, cause: raw },
        cause: err,
      },
    );
  }
  if (typed) {
    return new CairnError(typed.code, fill(typed.message) ?? typed.message, {
      remedy: fill(typed.remedy),
      details: typed.details,
      cause: err,
    });
  }
  return new CairnError('dependency_unavailable', `The embedding model ${modelId} cannot be loaded: ${raw}`, {
    remedy: 'Check the model id, or download the model where a network exists.',
    details: { model: modelId },
    cause: err,
  });
}
