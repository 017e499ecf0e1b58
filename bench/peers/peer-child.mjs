/**
 * The reference side of the peers benchmark, run on the Node 22 from the references cache (qmd
 * asks for Node >= 22, and better-sqlite3's prebuilt binding is for it). Plain JS: it imports qmd
 * and better-sqlite3 from that cache, never from the repo.
 *
 *   node peer-child.mjs index <refs> <db> <dir> <query>
 *                                                 qmd indexes <dir> (*.md) into <db> and answers
 *                                                 <query>; prints JSON
 *                                                 { ms, max_rss_mb, documents, hits } and exits
 *   node peer-child.mjs serve <refs> <db> <rows>  answers JSON lines on stdin:
 *                                                 { q, tokens } -> { qmd: {ms,hits}, fts5: {ms,hits} }
 *                                                 (<rows>: JSON lines { id, text } of Cairn's chunks)
 *   node peer-child.mjs mcp <refs> <db>           qmd's own MCP HTTP server on a free loopback port;
 *                                                 prints { port } when listening
 *
 * Timings are taken inside this process around the call alone, like Cairn's in-process figures.
 */
import { createInterface } from 'node:readline';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { peakRssMb } from './peak-rss.mjs';

const [op, refs, db, arg, query] = process.argv.slice(2);
const qmdDist = join(refs, 'node_modules/@tobilu/qmd/dist');
const qmdConfig = (dir) => ({ collections: { docs: { path: dir, pattern: '**/*.md' } } });

async function index() {
  const { createStore } = await import(join(qmdDist, 'index.js'));
  const t0 = performance.now();
  const store = await createStore({ dbPath: db, config: qmdConfig(arg) });
  const r = await store.update();
  // Searchable: a first query answered, as Cairn's side counts it (bench/peers/cairn-index.mjs).
  const first = await store.searchLex(query, { limit: 10 });
  const ms = performance.now() - t0;
  await store.close();
  process.stdout.write(
    JSON.stringify({
      ms,
      max_rss_mb: peakRssMb(),
      documents: r.indexed + r.updated + r.unchanged,
      hits: first.length,
    }) + '\n',
  );
}

/** FTS5 over the same analysed chunk text Cairn's chunk index holds: the physical reference. */
async function fts5(rowsFile) {
  const { default: Database } = await import(join(refs, 'node_modules/better-sqlite3/lib/index.js'));
  const sql = new Database(':memory:');
  sql.exec("CREATE VIRTUAL TABLE c USING fts5(id UNINDEXED, text, tokenize = 'unicode61 remove_diacritics 0')");
  const insert = sql.prepare('INSERT INTO c (id, text) VALUES (?, ?)');
  const lines = createInterface({ input: createReadStream(rowsFile), crlfDelay: Infinity });
  sql.exec('BEGIN');
  for await (const line of lines) {
    if (!line) continue;
    const r = JSON.parse(line);
    insert.run(r.id, r.text);
  }
  sql.exec('COMMIT');
  sql.exec("INSERT INTO c(c) VALUES ('optimize')");
  return sql.prepare('SELECT id, bm25(c) AS score FROM c WHERE c MATCH ? ORDER BY rank LIMIT 200');
}

async function serve() {
  const { createStore } = await import(join(qmdDist, 'index.js'));
  const store = await createStore({ dbPath: db });
  const top = await fts5(arg);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  for await (const line of lines) {
    if (!line) continue;
    const { q, tokens } = JSON.parse(line);
    let t0 = performance.now();
    const hits = await store.searchLex(q, { limit: 10 });
    const qmd = { ms: performance.now() - t0, hits: hits.length };
    // The analysed tokens, each quoted (no FTS5 syntax), any of them: what a BM25 match query is.
    const match = tokens.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
    t0 = performance.now();
    const rows = match ? top.all(match) : [];
    const f = { ms: performance.now() - t0, hits: rows.length };
    process.stdout.write(JSON.stringify({ qmd, fts5: f }) + '\n');
  }
  await store.close();
}

async function mcp() {
  process.env.XDG_CONFIG_HOME = join(db, '..', 'qmd-config');
  const { startMcpHttpServer } = await import(join(qmdDist, 'mcp/server.js'));
  const handle = await startMcpHttpServer(0, { dbPath: db, quiet: true });
  const port = handle.port ?? handle.server?.address?.().port;
  process.stdout.write(JSON.stringify({ port }) + '\n');
  // The benchmark holds stdin open: when it ends (or dies), so does this server.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

const run = { index, serve, mcp }[op];
if (!run) {
  process.stderr.write(`unknown op ${op}\n`);
  process.exit(2);
}
run().then(
  () => op !== 'mcp' && process.exit(0),
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
