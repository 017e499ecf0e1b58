/**
 * Copies an embedding model folder into `resources/models/<id>/`, which the packaged app ships
 * and the registry looks at first (`bundledModelsDir`), so the app works offline from the start.
 *
 *   node --import tsx scripts/bundle-model.ts cairn/use-lite                 (converts it in place)
 *   node --import tsx scripts/bundle-model.ts Xenova/bge-small-en-v1.5 --data-dir ~/.cairn
 *   node --import tsx scripts/bundle-model.ts <id> --from <model folder> [--out resources/models]
 *
 * Only the files transformers.js loads are copied (not every ONNX variant of a hub download).
 */
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildUseLiteInto, STAMP_FILE } from '../main/engine/embed/builtin/build.js';
import { hasModelFiles, onnxFileFor, resolveModel } from '../main/engine/embed/registry.js';

export function bundleModel(id: string, opts: { from?: string; dataDir?: string; out: string }): string {
  const model = resolveModel(id);
  const target = join(resolve(opts.out), ...model.id.split('/'));
  if (model.builtin && !opts.from) return buildUseLiteInto(target);
  if (!opts.from && !opts.dataDir) throw new Error('give --from <model folder> or --data-dir <Cairn data folder>');
  const from = resolve(opts.from ?? join(opts.dataDir as string, 'models', ...model.id.split('/')));
  if (!hasModelFiles(from, model.dtype)) {
    throw new Error(`${from} lacks config.json, tokenizer.json, tokenizer_config.json or ${onnxFileFor(model.dtype)}`);
  }
  const temp = `${target}.bundle-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(join(temp, 'onnx'), { recursive: true });
  for (const file of [
    'config.json',
    'tokenizer.json',
    'tokenizer_config.json',
    onnxFileFor(model.dtype),
    STAMP_FILE,
    'special_tokens_map.json',
  ]) {
    if (existsSync(join(from, file))) cpSync(join(from, file), join(temp, file));
  }
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  renameSync(temp, target);
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      'data-dir': { type: 'string' },
      out: { type: 'string', default: 'resources/models' },
    },
  });
  const id = positionals[0];
  if (!id) {
    console.error('usage: bundle-model.ts <model id> [--from DIR | --data-dir DIR] [--out resources/models]');
    process.exit(2);
  }
  console.log(
    `bundled ${id} into ${bundleModel(id, { from: values.from, dataDir: values['data-dir'], out: values.out as string })}`,
  );
}
