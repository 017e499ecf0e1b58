// The engine end to end on a realistic folder: a real LanceDB on disk, the real built-in model.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFixtureFolder, type FixtureInfo } from '../helpers/fixtures.js';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../main/engine/engine.js';
import { CairnError } from '../../main/engine/errors.js';
import { SEARCH_MODES, type SearchHit } from '../../main/common/search.js';

let engine: Engine;
let fx: FixtureInfo;
const cleanups: (() => Promise<void>)[] = [];

function relOf(h: SearchHit): string {
  return h.path.slice(fx.folder.length + 1);
}

async function rejectsWith(p: Promise<unknown>, code: string): Promise<CairnError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof CairnError, `expected a CairnError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected ${code}, but it succeeded`);
}

before(async () => {
  const fixtures = await tempDir('fixture');
  cleanups.push(fixtures.cleanup);
  fx = await makeFixtureFolder(fixtures.dir);
  // A corrupt PDF: recorded as a per-file error, the rest of the folder indexes.
  await writeFile(join(fx.folder, 'docs', 'broken.pdf'), '%PDF-1.7\nthis is not a pdf at all\n');
  const t = await tempEngine({ 'index.max_file_bytes': fx.maxFileBytes });
  engine = t.engine;
  cleanups.push(t.cleanup);
  await engine.addFolder({ path: fx.folder });
  await indexNow(engine, fx.folder, 'create');
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('indexing', () => {
  test('indexes exactly the files the walk accepts, and records per-file errors', async () => {
    const [folder] = await engine.folders();
    assert.equal(folder.state, 'fresh');
    assert.equal(folder.freshness.vector_coverage, 1);
    assert.ok(folder.chunks >= fx.indexed.length, `chunks ${folder.chunks}`);
    const broken = folder.errors.find((e) => e.path.endsWith('broken.pdf'));
    assert.ok(broken, `broken.pdf should be a per-file error: ${JSON.stringify(folder.errors)}`);
    assert.equal(folder.files + folder.file_errors, fx.indexed.length + 1);
  });

  test('the secret behind the outward symlink and excluded files are never served', async () => {
    for (const mode of SEARCH_MODES) {
      const res = await engine.search({ query: fx.secretText, mode, top_k: 50 });
      for (const h of res.hits) {
        assert.ok(!h.snippet.includes(fx.secretText), `${mode} served the secret from ${h.path}`);
        assert.ok(!fx.excluded.some((x) => x.rel === relOf(h)), `${mode} served excluded ${relOf(h)}`);
      }
    }
  });
});

describe('search', () => {
  test('every distinctive phrase finds its file first in sparse, hybrid and tribrid', async () => {
    for (const mode of ['sparse', 'hybrid', 'tribrid'] as const) {
      for (const [phrase, rel] of Object.entries(fx.phrases)) {
        const res = await engine.search({ query: phrase, mode, top_k: 5 });
        assert.equal(res.mode, mode);
        assert.ok(res.hits.length > 0, `${mode}: no hit for ${phrase}`);
        assert.equal(relOf(res.hits[0]), rel, `${mode}: "${phrase}" → ${res.hits.map(relOf).join(', ')}`);
      }
    }
  });

  test('hits carry the line range of the definition, numbered snippets, legs and freshness', async () => {
    const sym = fx.symbols.find((s) => s.name === 'parseInvoiceTotals');
    assert.ok(sym);
    const res = await engine.search({ query: 'parseInvoiceTotals', mode: 'hybrid', top_k: 3 });
    const hit = res.hits[0];
    assert.equal(relOf(hit), sym.rel);
    // A long function is split into windows that keep its symbol; the hit must lie within the definition.
    assert.ok(
      hit.start_line >= sym.startLine && hit.start_line <= sym.endLine,
      `${hit.start_line}-${hit.end_line} vs ${sym.startLine}-${sym.endLine}`,
    );
    assert.equal(hit.symbol, 'parseInvoiceTotals');
    assert.match(hit.snippet, new RegExp(`^\\s*${hit.start_line}│ `));
    assert.ok(hit.legs.sparse !== undefined);
    assert.equal(hit.freshness.state, 'fresh');
    assert.deepEqual(res.legs_answered, ['sparse', 'vector']);
  });

  test('vector mode answers a paraphrase with no shared words', async () => {
    const res = await engine.search({ query: 'how far apart are two places on the planet', mode: 'vector', top_k: 5 });
    assert.ok(
      res.hits.some((h) => relOf(h) === 'py/geo.py'),
      res.hits.map(relOf).join(', '),
    );
    assert.deepEqual(Object.keys(res.hits[0].legs), ['vector']);
  });

  test('PDF hits carry their page', async () => {
    const res = await engine.search({ query: 'glacier tourism', mode: 'sparse', top_k: 3 });
    const pdf = res.hits.find((h) => h.path.endsWith('.pdf'));
    assert.ok(pdf?.page && pdf.page >= 1, JSON.stringify(res.hits[0]));
  });

  test('the graph leg reaches a definition the text legs rank low', async () => {
    const res = await engine.search({ query: 'parseInvoiceTotals', mode: 'tribrid', top_k: 10 });
    assert.ok(
      res.hits.some((h) => h.legs.graph !== undefined),
      JSON.stringify(res.hits.map((h) => h.legs)),
    );
    assert.deepEqual(res.legs_answered, ['sparse', 'vector', 'graph']);
  });

  test('several queries are fused', async () => {
    const res = await engine.search({ queries: ['haversine_distance', 'crc32_checksum'], mode: 'sparse', top_k: 10 });
    const rels = res.hits.map(relOf);
    assert.ok(rels.includes('py/geo.py') && rels.includes('c/checksum.c'), rels.join(', '));
  });

  test('an empty result is a success', async () => {
    const res = await engine.search({ query: 'zzqxv unmatched token', mode: 'sparse' });
    assert.deepEqual(res.hits, []);
  });
});

describe('filters', () => {
  test('globs are ordered and ! negates', async () => {
    const only = await engine.search({ query: 'distance', mode: 'sparse', top_k: 20, globs: ['py/**'] });
    assert.ok(
      only.hits.length > 0 && only.hits.every((h) => relOf(h).startsWith('py/')),
      only.hits.map(relOf).join(', '),
    );
    const not = await engine.search({ query: 'distance', mode: 'sparse', top_k: 20, globs: ['!py/**'] });
    assert.ok(
      not.hits.every((h) => !relOf(h).startsWith('py/')),
      not.hits.map(relOf).join(', '),
    );
    const reinclude = await engine.search({
      query: 'distance',
      mode: 'sparse',
      top_k: 20,
      globs: ['**', '!py/**', 'py/geo.py'],
    });
    assert.ok(reinclude.hits.some((h) => relOf(h) === 'py/geo.py'));
  });

  test('file types by extension and by kind', async () => {
    const md = await engine.search({ query: 'invoice', mode: 'hybrid', top_k: 20, file_types: ['md'] });
    assert.ok(md.hits.length > 0 && md.hits.every((h) => h.path.endsWith('.md')), md.hits.map(relOf).join(', '));
    const code = await engine.search({ query: 'invoice', mode: 'tribrid', top_k: 20, file_types: ['code'] });
    assert.ok(
      code.hits.length > 0 && code.hits.every((h) => h.kind === 'code'),
      code.hits.map((h) => h.kind).join(', '),
    );
  });

  test('modified after/before', async () => {
    const old = new Date('2020-01-02T00:00:00Z');
    await utimes(join(fx.folder, 'py', 'geo.py'), old, old);
    await indexNow(engine, fx.folder);
    const before2021 = await engine.search({
      query: 'distance',
      mode: 'sparse',
      top_k: 20,
      modified_before: '2021-01-01T00:00:00Z',
    });
    assert.ok(
      before2021.hits.length > 0 && before2021.hits.every((h) => relOf(h) === 'py/geo.py'),
      before2021.hits.map(relOf).join(', '),
    );
    const after2021 = await engine.search({
      query: 'distance',
      mode: 'sparse',
      top_k: 20,
      modified_after: '2021-01-01T00:00:00Z',
    });
    assert.ok(after2021.hits.every((h) => relOf(h) !== 'py/geo.py'));
  });

  test('folders restrict the scope; an unknown folder is an invalid argument', async () => {
    const res = await engine.search({ query: 'distance', mode: 'sparse', folders: [fx.folder] });
    assert.ok(res.hits.length > 0);
    await rejectsWith(engine.search({ query: 'distance', folders: ['/nope'] }), 'invalid_argument');
  });
});

describe('typed errors', () => {
  test('bad arguments are invalid_argument, naming the argument under details.key', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ query: '' }, 'query'],
      [{ query: 'x', mode: 'bogus' }, 'mode'],
      [{ query: 'x', top_k: 0 }, 'top_k'],
      [{ query: 'x', top_k: 101 }, 'top_k'],
      [{ query: 'x', top_k: 2.5 }, 'top_k'],
      [{ query: 'x', modified_after: 'yesterday' }, 'modified_after'],
      [{ query: 'x', freshness: 'now' }, 'freshness'],
      [{ query: 'x', globs: 'py/**' }, 'globs'],
    ];
    for (const [req, field] of cases) {
      const err = await rejectsWith(engine.search(req as never), 'invalid_argument');
      assert.equal(err.details?.key, field, JSON.stringify(req));
    }
  });

  test('a configured model that conflicts with the index fails vector modes closed; sparse keeps serving', async () => {
    engine.settings.set({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
    await new Promise((r) => setTimeout(r, 50));
    try {
      for (const mode of ['vector', 'hybrid', 'tribrid'] as const) {
        const err = await rejectsWith(engine.search({ query: 'distance', mode }), 'embedding_contract_mismatch');
        assert.match(err.remedy ?? '', /re-index/i);
      }
      const sparse = await engine.search({ query: 'distance', mode: 'sparse' });
      assert.ok(sparse.hits.length > 0);
      const status = await engine.status();
      assert.equal(status.contract_mismatch?.code, 'embedding_contract_mismatch');
    } finally {
      engine.settings.set({ 'embedding.model': 'cairn/use-lite' });
      await new Promise((r) => setTimeout(r, 50));
    }
    const again = await engine.search({ query: 'distance', mode: 'hybrid' });
    assert.ok(again.hits.length > 0);
  });
});

describe('a model that cannot load', () => {
  test('vector modes fail with required_retrieval_leg_failed; sparse works', async () => {
    const fixtures = await tempDir('nomodel');
    const t = await tempEngine({ 'embedding.model': 'Xenova/all-MiniLM-L6-v2' });
    try {
      await writeFile(join(fixtures.dir, 'note.md'), '# Note\n\nThe quarterly glacier survey starts in March.\n');
      await t.engine.addFolder({ path: fixtures.dir });
      await indexNow(t.engine, fixtures.dir, 'create');
      const sparse = await t.engine.search({ query: 'glacier survey', mode: 'sparse' });
      assert.equal(sparse.hits.length, 1);
      assert.equal(sparse.hits[0].freshness.vector_coverage, 0);
      const err = await rejectsWith(
        t.engine.search({ query: 'glacier survey', mode: 'hybrid' }),
        'required_retrieval_leg_failed',
      );
      assert.equal((err.details as { leg: string }).leg, 'vector');
      assert.equal((await t.engine.status()).model.state, 'error');
    } finally {
      await t.cleanup();
      await fixtures.cleanup();
    }
  });
});
