// Issue 12, cause 5 (and issue 16's DOCX bomb): no document can stall the engine. A DOCX bomb
// `read` runs over a real MCP client on real HTTP while a bystander keeps calling tools/list: each
// answer must come within 1 s (a liveness bound, not a benchmark: the old code blocked the event
// loop for 17 s and more). The attacking call must end in a typed error, and the engine must serve
// normally afterwards. Cause 4 (ReDoS), with a separate engine process and a loaded machine, is in
// redos-liveness.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSZip from 'jszip';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, startFixture, type Fixture } from '../mcp/fixtures.js';
import type { Engine } from '../../main/engine/engine.js';
import { indexNow } from '../helpers/engine.js';
import { rpc, whileCalling } from './bystander.js';
import { MAX_DOCX_XML_BYTES } from '../../main/engine/parse/zip-limits.js';

let fx: Fixture;
let attacker: Client;

before(async () => {
  fx = await startFixture({ 'mcp.toolset': 'full' });
  attacker = await connect(fx.mcpUrl);
  // Background work of the fixture's first index (vectors, model load) is not what is measured.
  const engine = fx.engine as Engine;
  for (let i = 0; i < 600; i++) {
    const t = (await engine.status()).totals;
    if (t.chunks > 0 && t.embedded_chunks === t.chunks) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await engine.idle();
  await rpc(fx.mcpUrl, 'tools/list');
});

after(async () => {
  await attacker?.close();
  await fx?.close();
});

const errorOf = (res: CallToolResult) => (res.structuredContent as { error?: { code: string; message: string } }).error;

/** A DOCX whose document.xml inflates to `mb` MB from a few hundred kB; `lie` rewrites its declared sizes to look small. */
async function docxBomb(mb: number, lie: boolean): Promise<Buffer> {
  const para = '<w:p><w:r><w:t>bomb bomb bomb bomb bomb bomb bomb bomb</w:t></w:r></w:p>';
  // Filled outside the JS heap, so making the bomb costs the test little.
  const body = Buffer.alloc(Math.floor((mb * 2 ** 20) / para.length) * para.length, para);
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    Buffer.concat([
      Buffer.from(
        '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>',
      ),
      body,
      Buffer.from('</w:body></w:document>'),
    ]),
  );
  const buf = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
  if (lie) {
    // Central directory headers (PK\x01\x02): uncompressed size at +24; local headers (PK\x03\x04) at +22.
    for (let i = 0; i + 4 < buf.length; i++) {
      if (buf.readUInt32LE(i) === 0x02014b50) buf.writeUInt32LE(1000, i + 24);
      else if (buf.readUInt32LE(i) === 0x04034b50) buf.writeUInt32LE(1000, i + 22);
    }
  }
  return buf;
}

test(
  'DOCX bomb: read refuses it with a typed error, memory stays bounded, tools/list keeps answering',
  { timeout: 180_000 },
  async () => {
    const mb = Math.ceil(MAX_DOCX_XML_BYTES / 2 ** 20) + 16;
    for (const lie of [false, true]) {
      const bomb = await docxBomb(mb, lie);
      assert.ok(bomb.length < 2 ** 20, `the bomb is small on disk (${bomb.length} bytes)`);
      const path = join(fx.data, `bomb-${lie ? 'lying' : 'plain'}.docx`);
      await writeFile(path, bomb);
      const base = process.memoryUsage().rss;
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      try {
        const { result, slowest, during } = await whileCalling(
          fx.mcpUrl,
          [['tools/list', {}]],
          () => attacker.callTool({ name: 'read', arguments: { path } }) as Promise<CallToolResult>,
        );
        const err = errorOf(result);
        assert.equal(err?.code, 'invalid_argument', JSON.stringify(result.structuredContent));
        assert.match(err.message, /inflate|zip bomb/);
        assert.ok((during['tools/list'] ?? 0) >= 1, 'tools/list never answered while the bomb was read');
        assert.ok(
          slowest['tools/list'] < 1000,
          `tools/list took ${slowest['tools/list'].toFixed(0)} ms during the bomb read`,
        );
      } finally {
        clearInterval(sampler);
      }
      // The old code inflated it all in this process (gigabytes for the 92 kB file).
      assert.ok(
        peak - base < 400 * 2 ** 20,
        `RSS grew ${((peak - base) / 2 ** 20).toFixed(0)} MB reading a ${lie ? 'lying ' : ''}bomb`,
      );
    }
    // Control: a real DOCX in the fixture folder still reads.
    const zip = new JSZip();
    zip.file(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    );
    zip.file(
      '_rels/.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    );
    zip.file(
      'word/document.xml',
      '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>an honest paragraph</w:t></w:r></w:p></w:body></w:document>',
    );
    const good = join(fx.data, 'honest.docx');
    await writeFile(good, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    const read = (await attacker.callTool({ name: 'read', arguments: { path: good } })) as CallToolResult;
    assert.equal(errorOf(read), undefined, JSON.stringify(read.structuredContent));
    assert.match(JSON.stringify(read.structuredContent), /an honest paragraph/);
  },
);

test(
  "DOCX bomb while indexing: recorded as that file's error, the rest of the folder indexed, memory bounded",
  { timeout: 300_000 },
  async () => {
    const engine = fx.engine as Engine;
    // The fixture is a copy of an index built in another process: the model loads at this index's
    // embedding pass. Loaded first, so the bound is on what the bombs cost, not on the model.
    await (await engine.embedder()).embedQuery('warm up');
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    await writeFile(
      join(fx.data, 'notes', 'after-bomb.md'),
      '# After\n\nThe zeppelin hangar notes survive the bomb.\n',
    );
    try {
      await indexNow(engine, fx.data);
    } finally {
      clearInterval(sampler);
    }
    const st = (await engine.folders()).find((f) => f.path === fx.data);
    const bombErrors = st?.errors.filter((e) => /bomb-/.test(e.path)) ?? [];
    assert.equal(bombErrors.length, 2, JSON.stringify(st?.errors));
    for (const e of bombErrors) assert.match(e.message, /inflate|zip bomb/);
    const hits = await engine.search({ query: 'zeppelin hangar', mode: 'sparse', top_k: 5 });
    assert.ok(
      hits.hits.some((h) => h.path.endsWith('after-bomb.md')),
      'the rest of the folder was not indexed',
    );
    assert.ok(hits.hits.length > 0);
    // Parse workers share this process's RSS: the bound covers them too.
    assert.ok(peak - base < 600 * 2 ** 20, `RSS grew ${((peak - base) / 2 ** 20).toFixed(0)} MB indexing the bombs`);
  },
);
