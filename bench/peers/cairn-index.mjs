/**
 * Cairn's side of "time to searchable" and "peak RSS while indexing" in the peers benchmark, in a
 * fresh process of its own as qmd's is, running the engine compiled as the app ships it (no
 * on-the-fly TypeScript: tsx's loader cost this process 0.4 s and 70 MB at 2k chunks):
 *   node cairn-index.mjs <compiled engine.js> <home> <dir> <settings json> <query>
 * indexes <dir> until its text is searchable: the job done (the sparse leg complete; no embedding,
 * as qmd's `update` computes no vectors) and a first sparse search for <query> answered, which is
 * when a person's first query after indexing gets its answer (it once read every written path back
 * from LanceDB first: 1.4-1.9 s of 2,000 files). Then the maintenance pass the engine runs a moment
 * after a job, inside the peak RSS too. Prints { ms, max_rss_mb, chunks, files, hits }. The folder
 * is a text-only one, so no model is loaded: a normal folder runs the same text phase first (the
 * model loads only once its vectors are computed), so its text is searchable at the same point.
 * The clock starts once the engine is open, as qmd's starts once its module is imported. The
 * process is set up as `cairn serve`'s: the benchmark spawns it with the engine's malloc settings
 * and Node flags, and the heap growth the CLI's entry sets is set here.
 */
import { pathToFileURL } from 'node:url';
import { peakRssMb } from './peak-rss.mjs';

const [engineJs, home, dir, settings, query] = process.argv.slice(2);
const { openEngine } = await import(pathToFileURL(engineJs).href);
const { tuneHeapGrowth } = await import(new URL('./kernel/heap-growth.js', pathToFileURL(engineJs)).href);
tuneHeapGrowth();
const engine = await openEngine({ home });
engine.settings.set(JSON.parse(settings));
const t0 = performance.now();
await engine.addFolder({ path: dir, text_only: true });
const job = await engine.indexFolder(dir, 'create');
await engine.idle();
const first = await engine.search({ query, mode: 'sparse', top_k: 10 });
const ms = performance.now() - t0;
await engine.runMaintenance();
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
process.stdout.write(
  JSON.stringify({ ms, max_rss_mb: maxRss, chunks: folder.chunks, files: folder.files, hits: first.hits.length }) +
    '\n',
);
process.exit(0);
