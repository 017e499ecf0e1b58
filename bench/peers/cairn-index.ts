/**
 * Cairn's side of "time to searchable" and "peak RSS while indexing" in the peers benchmark, in a
 * fresh process of its own as qmd's is: `node --import tsx cairn-index.ts <root> <home> <dir>`
 * indexes <dir> until its text is searchable (the sparse leg complete; no embedding, as qmd's
 * `update` computes no vectors) and prints { ms, max_rss_mb, chunks, files }. The folder is a
 * text-only one, so no model is loaded: a normal folder runs the same text phase first (the model
 * loads only once its vectors are computed), so its text is searchable at the same point.
 */
import '../lib/env.js';
import { indexFolderAndWait, openBenchEngine } from '../lib/engine.js';
import { QUIET_SETTINGS } from '../lib/indexed-fixture.js';

const [root, home, dir] = process.argv.slice(2);
const engine = await openBenchEngine(root, home, QUIET_SETTINGS);
const t0 = performance.now();
const r = await indexFolderAndWait(engine, dir, { vectors: false, textOnly: true });
const ms = performance.now() - t0;
const maxRss = process.resourceUsage().maxRSS / 1024;
await engine.close();
process.stdout.write(JSON.stringify({ ms, max_rss_mb: maxRss, chunks: r.chunks, files: r.files }) + '\n');
process.exit(0);
