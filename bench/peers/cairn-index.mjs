/**
 * Cairn's side of "time to searchable" and "peak RSS while indexing" in the peers benchmark, in a
 * fresh process of its own as qmd's is, running the engine compiled as the app ships it (no
 * on-the-fly TypeScript: tsx's loader cost this process 0.4 s and 70 MB at 2k chunks):
 *   node cairn-index.mjs <compiled engine.js> <home> <dir> <settings json>
 * indexes <dir> until its text is searchable (the sparse leg complete; no embedding, as qmd's
 * `update` computes no vectors) and prints { ms, max_rss_mb, chunks, files }. The folder is a
 * text-only one, so no model is loaded: a normal folder runs the same text phase first (the model
 * loads only once its vectors are computed), so its text is searchable at the same point.
 * The clock starts once the engine is open, as qmd's starts once its module is imported.
 */
import { pathToFileURL } from 'node:url';
import { peakRssMb } from './peak-rss.mjs';

const [engineJs, home, dir, settings] = process.argv.slice(2);
const { openEngine } = await import(pathToFileURL(engineJs).href);
const engine = await openEngine({ home });
engine.settings.set(JSON.parse(settings));
const t0 = performance.now();
await engine.addFolder({ path: dir, text_only: true });
const job = await engine.indexFolder(dir, 'create');
await engine.idle();
const ms = performance.now() - t0;
const state = engine.job(job.id)?.state;
const folder = (await engine.folders()).find((f) => f.path === dir);
if (state !== 'done' || !folder || folder.state === 'error' || folder.chunks === 0) {
  process.stderr.write(
    `indexing ${dir} ended ${state}: ${folder?.reason ?? engine.job(job.id)?.error?.message ?? 'no rows'}\n`,
  );
  process.exit(1);
}
const maxRss = peakRssMb();
await engine.close();
process.stdout.write(JSON.stringify({ ms, max_rss_mb: maxRss, chunks: folder.chunks, files: folder.files }) + '\n');
process.exit(0);
