/** The same tools over stdio: the SDK client launches a child that runs serveStdio on the real engine. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { indexedHome } from './fixtures.js';

const here = dirname(fileURLToPath(import.meta.url));

test('stdio: list and call the tools, typed errors included', async () => {
  // The fixture indexed once per run (a copy of it here), then the home handed to the child.
  const { root, home } = await indexedHome({ 'mcp.toolset': 'full' });

  const client = new Client({ name: 'cairn-stdio-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join(here, 'stdio-child.ts'), home],
    env: { ...(process.env as Record<string, string>), LANCEDB_LOG: 'error' },
    stderr: 'pipe',
  });
  try {
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('search') && names.includes('read') && names.includes('grep'), names.join());
    const res = (await client.callTool({
      name: 'search',
      arguments: { query: 'exponential backoff' },
    })) as CallToolResult;
    assert.equal(res.isError, undefined);
    const hits = (res.structuredContent as { result: { hits: { path: string }[] } }).result.hits;
    assert.ok(hits[0].path.endsWith('retry.md'));
    const read = (await client.callTool({
      name: 'read',
      arguments: { path: join(root, 'outside.txt') },
    })) as CallToolResult;
    assert.equal(read.isError, true);
    assert.equal((read.structuredContent as { error: { code: string } }).error.code, 'path_outside_folders');
    const bad = (await client.callTool({ name: 'search', arguments: { query: 'x', top_k: 0 } })) as CallToolResult;
    assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'invalid_argument');
  } finally {
    await client.close();
    await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
});
