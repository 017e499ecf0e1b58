/**
 * The analysed chunk text FTS5 indexes in the peers benchmark, exported from Cairn's index in a
 * process of its own: `node --import tsx export-chunks.ts <index dir> <file.jsonl>` prints
 * { rows }. Not in the benchmark's process: after a second LanceDB 0.31 connection there had read
 * the chunks table and closed, the engine's next optimize of it never returned (reproduced at 100k
 * chunks, also with a Session of its own; a separate process is unaffected).
 */
import * as lancedb from '@lancedb/lancedb';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const [indexDir, file] = process.argv.slice(2);
const db = await lancedb.connect(indexDir);
const t = await db.openTable('chunks');
const out = createWriteStream(file);
let rows = 0;
for await (const batch of t.query().select(['id', 'search_text'])) {
  for (const r of batch.toArray() as unknown as { id: string; search_text: string }[]) {
    if (!out.write(JSON.stringify({ id: r.id, text: r.search_text }) + '\n')) await once(out, 'drain');
    rows++;
  }
}
out.end();
await once(out, 'finish');
t.close();
db.close();
process.stdout.write(JSON.stringify({ rows }) + '\n');
