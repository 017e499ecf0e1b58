/**
 * stdio in both eras: each client kind launches its own `serveStdio` child on the same real
 * index (one after the other: the child holds the home's lock) and runs discover or initialize,
 * tools/list, search, read and the typed errors. A 2026-07-28 client's `server/discover` must be
 * answered (not -32601), so a pinned client connects without falling back.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_KINDS, EXPECTED_ERA, connectEra, type StdioLaunch } from './era-clients.js';
import { indexedHome } from './fixtures.js';

const here = dirname(fileURLToPath(import.meta.url));
let root: string;
let launch: StdioLaunch;

before(async () => {
  // The fixture indexed once per run, copied here (with outside.txt beside the folder).
  const fx = await indexedHome();
  root = fx.root;
  const home = fx.home;
  launch = {
    command: process.execPath,
    args: ['--import', 'tsx', join(here, 'stdio-child.ts'), home],
    env: { ...(process.env as Record<string, string>), LANCEDB_LOG: 'error' },
  };
});

after(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

for (const kind of CLIENT_KINDS) {
  test(`stdio ${kind}: ${EXPECTED_ERA[kind]} era, tools/list, search, read, typed errors`, async () => {
    const client = await connectEra(kind, { stdio: launch });
    try {
      assert.equal(client.era, EXPECTED_ERA[kind]);
      if (client.era === 'modern') assert.deepEqual(client.discover?.supportedVersions, ['2026-07-28']);
      assert.deepEqual(client.capabilities?.tools, { listChanged: false });
      assert.deepEqual(
        (await client.listTools()).map((t) => t.name),
        ['search', 'read'],
      );
      const res = await client.callTool('search', { query: 'exponential backoff' });
      const hits = (res.structuredContent as { result: { hits: { path: string }[] } }).result.hits;
      assert.ok(hits[0].path.endsWith('retry.md'));
      const read = await client.callTool('read', { path: hits[0].path });
      assert.match(JSON.stringify(read.structuredContent), /five attempts/);
      const outside = await client.callTool('read', { path: join(root, 'outside.txt') });
      assert.equal(outside.isError, true);
      assert.equal((outside.structuredContent as { error: { code: string } }).error.code, 'path_outside_folders');
      assert.ok(!JSON.stringify(outside).includes('outside secret'));
      const bad = await client.callTool('search', { query: 'x', top_k: 0 });
      assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'invalid_argument');
    } finally {
      await client.close();
    }
  });
}
