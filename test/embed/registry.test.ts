// The model registry: ids, hub ids and local folders resolve to one description; availability
// follows the files on disk (data folder and app bundle); prefixes apply per role.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODELS, findLocalModel, listModels, resolveModel } from '../../main/engine/embed/registry.js';
import { foldShouting, withPrefix } from '../../main/engine/embed/prefixes.js';
import { buildUseLiteInto } from '../../main/engine/embed/builtin/build.js';
import { createEmbedder } from '../../main/engine/embed/embedder.js';
import { CairnError } from '../../main/engine/errors.js';
import { tempDataDir } from './helpers.js';

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';

test('the registry holds the built-in default and three small retrieval models', () => {
  const byId = new Map(MODELS.map((m) => [m.id, m]));
  const use = byId.get('cairn/use-lite');
  assert.ok(use);
  assert.deepEqual(
    [use.builtin, use.dimensions, use.maxTokens, use.fusionWeight, use.hubId],
    [true, 512, 128, 0.2, null],
  );
  const bge = byId.get('Xenova/bge-small-en-v1.5');
  assert.deepEqual(
    [bge?.dimensions, bge?.maxTokens, bge?.queryPrefix, bge?.documentPrefix, bge?.pooling],
    [384, 512, BGE_QUERY, '', 'cls'],
  );
  const arctic = byId.get('Snowflake/snowflake-arctic-embed-xs');
  assert.deepEqual([arctic?.dimensions, arctic?.maxTokens, arctic?.queryPrefix], [384, 512, BGE_QUERY]);
  const minilm = byId.get('Xenova/all-MiniLM-L6-v2');
  assert.deepEqual(
    [minilm?.dimensions, minilm?.maxTokens, minilm?.queryPrefix, minilm?.pooling],
    [384, 256, '', 'mean'],
  );
  for (const m of MODELS) {
    assert.ok(m.fusionWeight > 0 && m.fusionWeight <= 1);
    assert.ok(m.sizeMb > 0 && m.description.length > 20);
    if (!m.builtin) assert.ok(m.fusionWeight > use.fusionWeight, `${m.id} weighs more than the weak built-in`);
  }
});

test('query and document prefixes are applied by role', () => {
  const bge = resolveModel('Xenova/bge-small-en-v1.5');
  assert.deepEqual(withPrefix(bge, 'query', ['what is rust']), [BGE_QUERY + 'what is rust']);
  assert.deepEqual(withPrefix(bge, 'document', ['Rust is a language.']), ['Rust is a language.']);
  const arctic = resolveModel('Snowflake/snowflake-arctic-embed-xs');
  assert.equal(withPrefix(arctic, 'query', ['q'])[0], BGE_QUERY + 'q');
  const custom = { queryPrefix: 'query: ', documentPrefix: 'passage: ' };
  assert.deepEqual(withPrefix(custom, 'document', ['a', 'b']), ['passage: a', 'passage: b']);
  assert.deepEqual(withPrefix(resolveModel('cairn/use-lite'), 'query', ['x']), ['x']);
});

test('unknown hub ids resolve with unknown dimensions; nonsense is an invalid argument', () => {
  const m = resolveModel('someone/some-model');
  assert.deepEqual([m.source, m.hubId, m.dimensions, m.builtin], ['hub', 'someone/some-model', null, false]);
  for (const bad of ['not a model', 'a/b/c', '../escape/x']) {
    assert.throws(
      () => resolveModel(bad),
      (err: unknown) => err instanceof CairnError && err.code === 'invalid_argument',
      bad,
    );
  }
});

test('a local model folder is resolved with dimensions from its config', (t) => {
  const dir = join(tempDataDir(t), 'my-model');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ model_type: 'bert', hidden_size: 384, max_position_embeddings: 512 }),
  );
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 256 }));
  const m = resolveModel(dir);
  assert.deepEqual([m.source, m.dir, m.dimensions, m.maxTokens], ['local', dir, 384, 256]);
  assert.throws(
    () => resolveModel(join(dir, 'missing')),
    (err: unknown) => err instanceof CairnError && err.code === 'invalid_argument',
  );
});

test('listModels marks a model available when its files are on disk, in the data folder or the bundle', (t) => {
  const dataDir = tempDataDir(t);
  const bundled = join(tempDataDir(t), 'resources', 'models');
  const fake = (root: string, id: string) => {
    const dir = join(root, ...id.split('/'));
    mkdirSync(join(dir, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'])
      writeFileSync(join(dir, f), '{}');
    return dir;
  };
  const before = new Map(listModels(dataDir, { bundledModelsDir: bundled }).map((m) => [m.id, m]));
  assert.equal(before.get('cairn/use-lite')?.available, true, 'the built-in model can always be built');
  assert.equal(before.get('Xenova/all-MiniLM-L6-v2')?.available, false);
  const cached = fake(join(dataDir, 'models'), 'Xenova/all-MiniLM-L6-v2');
  const shipped = fake(bundled, 'Xenova/bge-small-en-v1.5');
  const after = new Map(listModels(dataDir, { bundledModelsDir: bundled }).map((m) => [m.id, m]));
  assert.equal(after.get('Xenova/all-MiniLM-L6-v2')?.available, true);
  assert.equal(after.get('Xenova/bge-small-en-v1.5')?.available, true);
  assert.equal(after.get('Snowflake/snowflake-arctic-embed-xs')?.available, false);
  assert.equal(after.get('Xenova/bge-small-en-v1.5')?.dimensions, 384);
  assert.equal(findLocalModel(resolveModel('Xenova/all-MiniLM-L6-v2'), dataDir), cached);
  assert.equal(
    findLocalModel(resolveModel('Xenova/bge-small-en-v1.5'), dataDir, { bundledModelsDir: bundled }),
    shipped,
  );
});

test('a hub model already on disk loads offline, without asking the hub', async (t) => {
  // A copy of the built-in model under a hub id stands in for a model downloaded earlier.
  const dataDir = tempDataDir(t);
  const dir = join(dataDir, 'models', 'someone', 'cached-model');
  buildUseLiteInto(dir);
  cpSync(join(dir, 'onnx', 'model.onnx'), join(dir, 'onnx', 'model_quantized.onnx'));
  const embedder = await createEmbedder({
    model: 'someone/cached-model',
    dataDir,
    threads: 1,
    remoteHost: 'http://127.0.0.1:9/',
  });
  t.after(() => embedder.close());
  assert.equal(embedder.dimensions, 512, 'dimensions read from the cached config');
  const v = await embedder.embedQuery('offline');
  assert.equal(v.length, 512);
});

test('text in capitals is folded to lower case for the model; short acronyms and mixed case are not', () => {
  assert.equal(foldShouting('MEASUREMENT OF DIELECTRIC CONSTANT'), 'measurement of dielectric constant');
  assert.equal(foldShouting('Élan VITAL À PARIS ÉTÉ'), 'élan vital à paris été');
  for (const same of [
    'NASA',
    'TODO fix',
    'The NASA report on DNA',
    'SELECT name, COUNT(*) FROM users WHERE created_at > NOW()',
    '東京 2024',
    '',
  ])
    assert.equal(foldShouting(same), same);
  assert.deepEqual(withPrefix(resolveModel('cairn/use-lite'), 'query', ['HOW DO I RESET MY PASSWORD']), [
    'how do i reset my password',
  ]);
});
