// The built-in USE-lite model end to end: converted into a temp data folder at first use and run
// through the real worker pool, against references from the original TensorFlow.js graph.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbedder, type CairnEmbedder } from '../../main/engine/embed/embedder.js';
import { useLiteSourceDir } from '../../main/engine/embed/builtin/source.js';
import { builtinModelDir } from '../../main/engine/embed/builtin/build.js';
import { AutoTokenizer } from '@huggingface/transformers';
import { cosine, loadReference, maxAbsDiff, norm, tempDataDir } from './helpers.js';

describe('built-in model cairn/use-lite', () => {
  let embedder: CairnEmbedder;
  const reference = loadReference();

  const cleanups: (() => void)[] = [];
  const dataDir = tempDataDir({ after: (fn) => cleanups.push(fn) });

  before(async () => {
    embedder = await createEmbedder({ model: 'cairn/use-lite', dataDir, threads: 2, batchSize: 4 });
  });
  after(async () => {
    await embedder?.close();
    cleanups.forEach((fn) => fn());
  });

  test('describes itself from the registry', () => {
    assert.equal(embedder.modelId, 'cairn/use-lite');
    assert.equal(embedder.dimensions, 512);
    assert.equal(embedder.maxTokens, 128);
    assert.equal(embedder.pool.size, 2);
    // Queries need one worker; documents start the second (embed/pool.ts, test/embed/worker-pool).
    assert.equal(embedder.pool.threads.length, 1);
    // A small young generation (embed/pool.ts); V8's default for a worker is 48 MB.
    assert.equal(embedder.pool.threads[0].resourceLimits?.maxYoungGenerationSizeMb, 4);
  });

  test('the references come from the TensorFlow.js graph, not from this port', () => {
    assert.match(reference.about, /TensorFlow\.js graph/);
    assert.ok(reference.sentences.length >= 8);
    assert.ok(
      reference.sentences.some((s) => s.ids.length > 128),
      'a sentence longer than the 128-token window',
    );
  });

  test('reproduces the reference embeddings (cosine > 0.9999, max abs diff < 1e-5)', async () => {
    const vectors = await embedder.embedDocuments(reference.sentences.map((s) => s.text));
    reference.sentences.forEach((s, i) => {
      const v = vectors[i];
      assert.equal(v.length, reference.dimensions);
      assert.ok(
        cosine(v, s.embedding) > 0.9999,
        `cosine ${cosine(v, s.embedding)} for ${JSON.stringify(s.text.slice(0, 40))}`,
      );
      assert.ok(
        maxAbsDiff(v, s.embedding) < 1e-5,
        `max abs diff ${maxAbsDiff(v, s.embedding)} for ${JSON.stringify(s.text.slice(0, 40))}`,
      );
      assert.ok(Math.abs(norm(v) - 1) < 1e-5, 'L2-normalised');
    });
  });

  test('a query is embedded like a document (USE-lite has no prefixes)', async () => {
    const text = reference.sentences[1].text;
    const q = await embedder.embedQuery(text);
    assert.ok(maxAbsDiff(q, reference.sentences[1].embedding) < 1e-5);
  });

  test('a query in capitals finds what the same words in lower case find (shouting is folded)', async () => {
    const docs = [
      'measurement of the dielectric constant of liquids with microwaves',
      'a budget debate in the city council about road repairs',
    ];
    const [onTopic, offTopic] = await embedder.embedDocuments(docs);
    const shouted = await embedder.embedQuery('MEASUREMENT OF DIELECTRIC CONSTANT OF LIQUIDS');
    const plain = await embedder.embedQuery('measurement of dielectric constant of liquids');
    assert.ok(maxAbsDiff(shouted, plain) < 1e-5, 'the shouted query is embedded as its lower-case form');
    assert.ok(
      cosine(shouted, onTopic) > cosine(shouted, offTopic) + 0.1,
      `on ${cosine(shouted, onTopic)} vs off ${cosine(shouted, offTopic)}`,
    );
    // An acronym alone is meant as written and stays as it is.
    assert.ok(maxAbsDiff(await embedder.embedQuery('NASA'), await embedder.embedQuery('nasa')) > 1e-3);
  });

  test('batching and padding do not change the vectors', async () => {
    const texts = reference.sentences.map((s) => s.text);
    const together = await embedder.embedDocuments(texts);
    const alone = await Promise.all(texts.map((t) => embedder.embedDocuments([t]).then((v) => v[0])));
    texts.forEach((t, i) =>
      assert.ok(
        maxAbsDiff(together[i], alone[i]) < 1e-5,
        `vector of ${JSON.stringify(t.slice(0, 30))} changed with batching`,
      ),
    );
  });

  test('reports progress and keeps input order across batches', async () => {
    const texts = Array.from({ length: 10 }, (_, i) => `${'word '.repeat(10 - i)}number ${i}`);
    const seen: number[] = [];
    const vectors = await embedder.embedDocuments(texts, (done) => seen.push(done));
    assert.equal(vectors.length, 10);
    assert.deepEqual(seen.at(-1), 10);
    assert.ok(
      seen.every((d, i) => i === 0 || d > seen[i - 1]),
      'progress increases',
    );
    const single = await embedder.embedDocuments([texts[7]]);
    assert.ok(maxAbsDiff(vectors[7], single[0]) < 1e-5);
  });

  test('an empty text gets a finite unit vector', async () => {
    const [v] = await embedder.embedDocuments(['']);
    assert.ok(v.every((x) => Number.isFinite(x)));
    assert.ok(Math.abs(norm(v) - 1) < 1e-5);
  });

  test('paraphrases rank above unrelated sentences', async () => {
    const pairs: [string, string][] = [
      ['How do I reset my password?', 'I forgot my login credentials and need new ones.'],
      ['The weather will be sunny and warm tomorrow.', 'Expect clear skies and high temperatures the next day.'],
      ['The cat is sleeping on the sofa.', 'A kitten naps on the couch.'],
      ['Stock markets fell sharply today.', 'Share prices dropped steeply this afternoon.'],
    ];
    const left = await embedder.embedDocuments(pairs.map((p) => p[0]));
    const right = await embedder.embedDocuments(pairs.map((p) => p[1]));
    left.forEach((l, i) => {
      const scores = right.map((r) => cosine(l, r));
      const best = scores.indexOf(Math.max(...scores));
      assert.equal(
        best,
        i,
        `"${pairs[i][0]}" matched "${pairs[best][1]}" (scores ${scores.map((s) => s.toFixed(3)).join(', ')})`,
      );
    });
  });

  test('tokenizer ids equal the independent USE tokenizer and spell the text in vocabulary pieces', async () => {
    const vocab = JSON.parse(readFileSync(join(useLiteSourceDir(), 'vocab.json'), 'utf8')) as [string, number][];
    const tokenizer = (await AutoTokenizer.from_pretrained(builtinModelDir(dataDir))) as unknown as {
      encode(t: string): number[];
    };
    for (const s of reference.sentences) {
      assert.deepEqual(tokenizer.encode(s.text), s.ids, `ids of ${JSON.stringify(s.text.slice(0, 30))}`);
      // Chunk sizing counts words (token-counter.ts): never below the tokenizer, a little above at most.
      const counted = embedder.countTokens(s.text);
      assert.ok(
        counted >= s.ids.length && counted <= Math.ceil(s.ids.length * 1.3) + 2,
        `${counted} vs ${s.ids.length}`,
      );
    }
    const ids = tokenizer.encode('Hello world');
    assert.deepEqual(
      ids.map((id) => vocab[id][0]),
      ['▁H', 'ello', '▁world'],
    );
    // Reserved pieces are never produced from text, even when the text spells them.
    assert.ok(!tokenizer.encode('<s> x </s>').some((id) => id >= 1 && id <= 5));
    assert.equal(embedder.countTokens('Hello world'), 3);
  });
});
