// The cached word-sum count must agree with the real tokenizer, or chunks would overflow the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmbedder } from '../../main/engine/embed/embedder.js';
import { CachedTokenCounter } from '../../main/engine/embed/token-counter.js';
import { README_MD, INVOICE_TS, GUIDE_MD } from '../helpers/fixtures.js';
import { tempDir } from '../helpers/engine.js';
import { AutoTokenizer } from '@huggingface/transformers';
import { join } from 'node:path';

test('word-sum counts never fall below the built-in tokenizer, and stay close to it', async () => {
  const { dir, cleanup } = await tempDir('tok');
  const e = await createEmbedder({ model: 'cairn/use-lite', dataDir: dir, threads: 1 });
  try {
    const tokenizer = await AutoTokenizer.from_pretrained(join(dir, 'models', 'cairn', 'use-lite'), {
      local_files_only: true,
    });
    const samples = [
      README_MD,
      INVOICE_TS,
      GUIDE_MD,
      'Ünïcödé façade — “quotes” and emoji 🎉 ok',
      '  leading   and\ttabs\n\nblank lines  ',
      'a',
      '',
    ];
    for (const text of samples) {
      for (const piece of [text, text.slice(0, 200), text.split('\n').slice(2, 9).join('\n')]) {
        const real = tokenizer.encode(piece, { add_special_tokens: false }).length;
        const counted = e.countTokens(piece);
        assert.ok(
          counted >= real && counted <= Math.ceil(real * 1.3) + 2,
          `${counted} vs ${real}: ${JSON.stringify(piece.slice(0, 60))}`,
        );
      }
    }
  } finally {
    await e.close();
    await cleanup();
  }
});

test('the cache is bounded and counts stay right after it clears', () => {
  let calls = 0;
  const c = new CachedTokenCounter((w) => {
    calls++;
    return w.length;
  }, 3);
  assert.equal(c.count('aa bbb aa'), 7);
  assert.equal(calls, 2);
  assert.equal(c.count('cccc d e f aa'), 9);
  assert.equal(c.count('aa'), 2);
  assert.equal(c.count('aa\nbb'), 7);
});
