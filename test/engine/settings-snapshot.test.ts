// Settings are read once per request, as an immutable snapshot: the snapshot is frozen, stays what
// it was when later writes land, is one object while config.json is unchanged, sees a hand edit on
// the next request, and one MCP search over real HTTP looks at config.json at most twice (the HTTP
// checks and the engine's search; it was 12 before the snapshot).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { rename, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { syncBuiltinESMExports } from 'node:module';
import { SettingsStore } from '../../main/engine/config/settings-store.js';
import { CairnError } from '../../main/engine/errors.js';
import { tempDir } from '../helpers/engine.js';
import { MCP_HEADERS, startFixture, toolCall } from '../mcp/fixtures.js';

test('a snapshot is frozen, keeps its values across writes and is renewed when config.json changes', async () => {
  const home = await tempDir('snap');
  try {
    const store = new SettingsStore(home.dir);
    store.set({ 'index.extra_excludes': ['*.tmp'] });
    const a = store.snapshot();
    assert.equal(store.snapshot(), a, 'the same object while the file is unchanged');
    assert.equal(a.get('search.rrf_k'), 60);
    const list = a.get<string[]>('index.extra_excludes');
    assert.deepEqual(list, ['*.tmp']);
    assert.ok(Object.isFrozen(a.values) && Object.isFrozen(list), 'values are frozen');
    assert.throws(() => list.push('x'), TypeError);
    // Control: get() hands out the caller's own copy, which may be changed.
    const own = store.get<string[]>('index.extra_excludes');
    own.push('x');
    assert.deepEqual(store.get('index.extra_excludes'), ['*.tmp']);

    store.set({ 'search.rrf_k': 30 });
    const b = store.snapshot();
    assert.notEqual(b, a);
    assert.equal(b.get('search.rrf_k'), 30);
    assert.equal(a.get('search.rrf_k'), 60, 'an earlier snapshot keeps its values');

    // A hand edit (a new file put in place, as editors and conf do) is seen by the next snapshot.
    const path = join(home.dir, 'config.json');
    const raw = JSON.parse(await readFile(path, 'utf8')) as { search: { rrf_k: number } };
    raw.search.rrf_k = 45;
    await writeFile(`${path}.new`, JSON.stringify(raw));
    await rename(`${path}.new`, path);
    assert.equal(store.snapshot().get('search.rrf_k'), 45);

    assert.throws(
      () => b.get('no.such'),
      (e: unknown) => e instanceof CairnError && e.code === 'invalid_argument',
    );
  } finally {
    await home.cleanup();
  }
});

test('one MCP search over HTTP reads config.json at most twice', { timeout: 300_000 }, async () => {
  const fx = await startFixture({ 'watch.enabled': false });
  const mutable = fs as { statSync: typeof fs.statSync };
  const orig = fs.statSync;
  let looks = 0;
  const counting = ((p: fs.PathLike, o?: fs.StatSyncOptions) => {
    if (String(p).endsWith('config.json')) looks++;
    return orig(p, o as never);
  }) as typeof fs.statSync;
  try {
    mutable.statSync = counting;
    syncBuiltinESMExports();
    // Control: the counter sees the store's reads (one look per get).
    looks = 0;
    for (let i = 0; i < 3; i++) fx.engine.settings.get('search.rrf_k');
    assert.equal(looks, 3, 'the counter does not see the settings store');

    for (const mode of ['sparse', 'tribrid']) {
      const call = (id: number) =>
        fetch(fx.mcpUrl, {
          method: 'POST',
          headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify(toolCall(id, 'search', { query: 'upload queue', mode })),
        });
      await (await call(1)).text();
      looks = 0;
      const res = await call(2);
      const body = (await res.json()) as {
        result?: { isError?: boolean; structuredContent?: { result?: { hits?: unknown[] } } };
      };
      assert.equal(res.status, 200);
      assert.ok(
        body.result && !body.result.isError && (body.result.structuredContent?.result?.hits?.length ?? 0) > 0,
        `${mode}: the search answered with hits`,
      );
      assert.ok(looks <= 2, `${mode}: config.json looked at ${looks} times for one search`);
      assert.ok(looks >= 1, `${mode}: settings were not read at all (the counter is broken)`);
    }
  } finally {
    mutable.statSync = orig;
    syncBuiltinESMExports();
    await fx.close();
  }
});
