/**
 * Converts USE-lite into a transformers.js model folder, and keeps a built copy under the data
 * folder up to date. The build goes to a temporary sibling folder and is renamed into place, so a
 * crash or a second process never leaves a half-written model where the embedder looks for it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildUseLiteGraph } from './graph.js';
import { readVocabulary, readWeights, useLiteSourceDir } from './source.js';
import { configJson, tokenizerConfigJson, tokenizerJson } from './tokenizer-files.js';

/** Bump whenever the converter's output changes: built copies with another stamp are rebuilt. */
export const CONVERTER_VERSION = 1;
export const BUILTIN_MODEL_ID = 'cairn/use-lite';
export const STAMP_FILE = 'cairn-build.json';

interface Stamp {
  converter: number;
  source: string;
}

function currentStamp(): Stamp {
  const pkg = JSON.parse(readFileSync(join(useLiteSourceDir(), '..', 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  return { converter: CONVERTER_VERSION, source: `${pkg.name}@${pkg.version}` };
}

/** What a build writes, and the file whose presence (beside a current stamp) says it is complete. */
interface BuildKind {
  write(dir: string): void;
  marker: string;
}

function writeTokenizer(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(readVocabulary(useLiteSourceDir()))));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfigJson(), null, 2));
}

/** Writes the complete model folder into `dir` (which must not exist yet or be empty). */
export function writeUseLiteModel(dir: string): void {
  const weights = readWeights(useLiteSourceDir());
  const table = weights.get('module/Embeddings_en');
  if (!table) throw new Error('USE-lite embedding table missing');
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), buildUseLiteGraph(weights));
  writeTokenizer(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(configJson(table.shape[0]), null, 2));
  // The stamp goes last: a folder with a valid stamp is complete.
  writeFileSync(join(dir, STAMP_FILE), JSON.stringify(currentStamp(), null, 2));
}

const MODEL: BuildKind = { write: writeUseLiteModel, marker: join('onnx', 'model.onnx') };
/** The tokenizer files alone: chunk sizing needs only them, a text-only folder never the model. */
const TOKENIZER: BuildKind = {
  write(dir) {
    writeTokenizer(dir);
    writeFileSync(join(dir, STAMP_FILE), JSON.stringify(currentStamp(), null, 2));
  },
  marker: 'tokenizer.json',
};

/** True when `dir` holds a model built by this converter version from this source package. */
export function isCurrentBuild(dir: string, kind: BuildKind = MODEL): boolean {
  try {
    const stamp = JSON.parse(readFileSync(join(dir, STAMP_FILE), 'utf8')) as Stamp;
    const want = currentStamp();
    return stamp.converter === want.converter && stamp.source === want.source && existsSync(join(dir, kind.marker));
  } catch {
    return false;
  }
}

/** Builds (or rebuilds) the model into `target` atomically; a current build is left alone. */
export function buildUseLiteInto(target: string): string {
  return buildInto(target, MODEL);
}

function buildInto(target: string, kind: BuildKind): string {
  if (isCurrentBuild(target, kind)) return target;
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = join(parent, `.use-lite.build-${tag}`);
  try {
    kind.write(temp);
    if (existsSync(target)) {
      // An outdated build: move it aside first, since rename cannot replace a non-empty folder.
      const old = join(parent, `.use-lite.old-${tag}`);
      try {
        renameSync(target, old);
        rmSync(old, { recursive: true, force: true });
      } catch {
        // Another process may have just replaced it; the check below decides.
      }
    }
    try {
      renameSync(temp, target);
    } catch (err) {
      // Lost a race with another builder: fine if what is there now is current.
      if (!isCurrentBuild(target)) throw err;
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return target;
}

/** Where the built-in model lives under a data folder: `<dataDir>/models/cairn/use-lite`. */
export function builtinModelDir(dataDir: string): string {
  return join(dataDir, 'models', ...BUILTIN_MODEL_ID.split('/'));
}

/** Builds in flight, so that concurrent first uses in one process share one build. */
const building = new Map<string, Promise<string>>();

function ensureBuilt(target: string, kind: BuildKind): Promise<string> {
  let pending = building.get(target);
  if (!pending) {
    pending = Promise.resolve()
      .then(() => buildInto(target, kind))
      .finally(() => building.delete(target));
    building.set(target, pending);
  }
  return pending;
}

/** The built-in model folder under `dataDir`, built at first use and rebuilt when outdated. */
export function ensureBuiltinModel(dataDir: string): Promise<string> {
  // Building is synchronous and takes about a second; deferring it keeps callers' sync code clean.
  return ensureBuilt(builtinModelDir(dataDir), MODEL);
}

/**
 * A folder with the built-in model's tokenizer files, for sizing chunks: the model's own folder
 * when it is built, else `<dataDir>/models/cairn/use-lite.tokenizer`, written in milliseconds. A
 * first index of text no longer waits (blocking this thread) for the model's second-long build.
 */
export function ensureBuiltinTokenizer(dataDir: string): Promise<string> {
  const model = builtinModelDir(dataDir);
  if (isCurrentBuild(model)) return Promise.resolve(model);
  return ensureBuilt(`${model}.tokenizer`, TOKENIZER);
}
