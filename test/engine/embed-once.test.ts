// Vectors are content-addressed by chunk text: identical chunks new in one embedding pass are
// embedded once, and a chunk whose text already has a vector (another file, another folder) gets a
// copy. The count of texts sent to the model is taken on the real built-in embedder (its
// embedDocuments wrapped in a counter that passes every call through), not on a stand-in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../main/engine/engine.js';
import type { FolderStatus, JobProgress } from '../../main/common/status.js';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';

/** Sections marked "zephyr" (the duplicated file) or "quokka" (the controls), so each sent text is known. */
const section = (marker: string, n: number, topic: string) =>
  `## ${marker} ${topic} ${n}\n\nThe ${marker} release ${n} changes how ${topic} works: ` +
  `${Array.from({ length: 40 }, (_, k) => `${topic}${(n * 7 + k) % 13} step ${k}`).join(', ')}.`;
const CHANGELOG = `# Changelog\n\n${[1, 2, 3, 4, 5].map((n) => section('zephyr', n, 'sync')).join('\n\n')}\n`;
const NOTES = `# Notes\n\n${[1, 2, 3].map((n) => section('quokka', n, 'export')).join('\n\n')}\n`;
const GLOSSARY = `# Glossary\n\n${[1, 2].map((n) => section('quokka', n, 'import')).join('\n\n')}\n`;

let engine: Engine;
let root: string;
const sent: string[] = [];
/** The file the running job named as being embedded, each time the model was handed texts. */
const named: (string | undefined)[] = [];
/** The running job's progress after each progress report of the model. */
const samples: JobProgress[] = [];
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const t = await tempEngine();
  engine = t.engine;
  cleanups.push(t.cleanup);
  const d = await tempDir('embed-once');
  cleanups.push(d.cleanup);
  root = d.dir;
  const embedder = await engine.embedder();
  const real = embedder.embedDocuments.bind(embedder);
  embedder.embedDocuments = (texts, onProgress, gate) => {
    sent.push(...texts);
    named.push(engine.jobs().find((j) => j.state === 'running')?.progress.current_file);
    return real(
      texts,
      (n) => {
        onProgress?.(n);
        const job = engine.jobs().find((j) => j.state === 'running');
        if (job) samples.push(job.progress);
      },
      gate,
    );
  };
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function folderStatus(path: string): Promise<FolderStatus> {
  const f = (await engine.folders()).find((s) => s.path === path);
  assert.ok(f, `no status for ${path}`);
  return f;
}

async function vectorHitPaths(folder: string, query: string): Promise<Set<string>> {
  const res = await engine.search({ query, mode: 'vector', folders: [folder], top_k: 50 });
  return new Set(res.hits.map((h) => h.path));
}

test('identical files in one folder are embedded once on the first index, and both get vectors', async () => {
  const a = join(root, 'a');
  await mkdir(a, { recursive: true });
  await writeFile(join(a, 'CHANGELOG.md'), CHANGELOG);
  await writeFile(join(a, 'CHANGELOG-copy.md'), CHANGELOG);
  await writeFile(join(a, 'notes.md'), NOTES);
  await engine.addFolder({ path: a });
  sent.length = 0;
  named.length = 0;
  samples.length = 0;
  const { id } = await engine.indexFolder(a, 'create');
  await engine.idle();
  const job = engine.job(id)!;
  assert.equal(job.state, 'done', JSON.stringify(job.error));

  const dup = sent.filter((s) => s.includes('zephyr'));
  const control = sent.filter((s) => s.includes('quokka'));
  assert.ok(dup.length >= 5, `the changelog's sections were embedded: ${dup.length}`);
  assert.ok(control.length >= 3, `the different file was embedded too: ${control.length}`);
  assert.equal(dup.length + control.length, sent.length);
  assert.equal(new Set(sent).size, sent.length, 'no text was sent to the model twice');

  const status = await folderStatus(a);
  // Both copies' chunks are in the index, each with a vector, from one embedding of each text.
  assert.equal(status.chunks, 2 * dup.length + control.length);
  assert.equal(status.embedded_chunks, status.chunks);
  const p = job.progress;
  assert.equal(p.files_done, 3);
  assert.equal(p.files_total, 3);
  assert.equal(p.chunks_done, status.chunks, 'every chunk counted, also those that reused a vector');
  assert.equal(p.chunks_total, status.chunks);
  assert.equal(p.current_file, undefined, 'the finished job names no file');
  // While texts came back, files and chunks moved together and never passed their totals; once the
  // model had every text, every chunk (also each copy's) and every file had been counted.
  assert.ok(samples.length > 0);
  for (const [k, s] of samples.entries()) {
    assert.ok(s.chunks_done <= s.chunks_total && s.files_done <= s.files_total, JSON.stringify(s));
    if (k > 0) assert.ok(s.chunks_done >= samples[k - 1].chunks_done && s.files_done >= samples[k - 1].files_done);
  }
  const last = samples[samples.length - 1];
  assert.deepEqual(
    [last.files_done, last.chunks_done],
    [3, status.chunks],
    JSON.stringify(samples.map((s) => [s.files_done, s.chunks_done])),
  );
  assert.ok(
    named.length > 0 && named.every((f) => f === 'CHANGELOG.md' || f === 'CHANGELOG-copy.md' || f === 'notes.md'),
    `while embedding, the job named the file: ${JSON.stringify(named)}`,
  );

  const hits = await vectorHitPaths(a, 'zephyr release changes how sync works');
  assert.ok(hits.has(join(a, 'CHANGELOG.md')), [...hits].join(', '));
  assert.ok(hits.has(join(a, 'CHANGELOG-copy.md')), [...hits].join(', '));
});

test('an identical file added later in another folder reuses the vectors; a different file beside it is embedded', async () => {
  const b = join(root, 'b');
  await mkdir(join(b, 'docs'), { recursive: true });
  await writeFile(join(b, 'docs', 'CHANGELOG.md'), CHANGELOG);
  await writeFile(join(b, 'glossary.md'), GLOSSARY);
  await engine.addFolder({ path: b });
  sent.length = 0;
  await indexNow(engine, b, 'create');

  assert.deepEqual(
    sent.filter((s) => s.includes('zephyr')),
    [],
    'no text of the copied changelog went to the model',
  );
  // The control: the counter sees what this pass does embed.
  assert.ok(sent.length >= 2, `the glossary was embedded: ${sent.length}`);
  assert.ok(
    sent.every((s) => s.includes('quokka')),
    sent.join('\n---\n'),
  );

  const status = await folderStatus(b);
  assert.ok(status.chunks > sent.length, `the changelog's chunks are indexed: ${status.chunks}`);
  assert.equal(status.embedded_chunks, status.chunks);
  const hits = await vectorHitPaths(b, 'zephyr release changes how sync works');
  assert.ok(hits.has(join(b, 'docs', 'CHANGELOG.md')), [...hits].join(', '));
});

test('identical files spread over several steps of one pass are still embedded once', async () => {
  // A step is 64 files: 70 copies span two, and the second step finds the vectors the first wrote.
  const c = join(root, 'c');
  await mkdir(c, { recursive: true });
  const text = `# Runbook\n\n${[1, 2].map((n) => section('zephyr', n, 'restore')).join('\n\n')}\n`;
  for (let i = 0; i < 70; i++) await writeFile(join(c, `runbook-${String(i).padStart(2, '0')}.md`), text);
  await engine.addFolder({ path: c });
  sent.length = 0;
  const { id } = await engine.indexFolder(c, 'create');
  await engine.idle();
  const job = engine.job(id)!;
  assert.equal(job.state, 'done', JSON.stringify(job.error));

  assert.ok(sent.length >= 2, `the runbook's sections were embedded: ${sent.length}`);
  assert.equal(new Set(sent).size, sent.length, 'no text was sent to the model twice');
  const status = await folderStatus(c);
  assert.equal(status.chunks, 70 * sent.length);
  assert.equal(status.embedded_chunks, status.chunks);
  assert.equal(job.progress.files_done, 70);
  assert.equal(job.progress.chunks_done, status.chunks);
  assert.equal(job.progress.chunks_total, status.chunks);
});

test('copies far apart in one pass are embedded once: a copy steps after the first finds its vector in the table', async () => {
  // 320 files are five steps of 64 (the walk is sorted by name). The pass keeps the vectors of its
  // last two steps in memory; a copy three or more steps after the first is found in what the pass
  // wrote, which its lookups of the table as it was when the pass began do not see.
  const e = join(root, 'e');
  await mkdir(e, { recursive: true });
  const text = `# Runbook\n\n${[3, 4].map((n) => section('zephyr', n, 'failover')).join('\n\n')}\n`;
  const copies = [0, 80, 160, 240, 319];
  for (let i = 0; i < 320; i++) {
    const body = copies.includes(i) ? text : `Filler note ${i}: the quokka counted ${i * 17} pebbles by the river.\n`;
    await writeFile(join(e, `r-${String(i).padStart(3, '0')}.md`), body);
  }
  await engine.addFolder({ path: e });
  sent.length = 0;
  const { id } = await engine.indexFolder(e, 'create');
  await engine.idle();
  const job = engine.job(id)!;
  assert.equal(job.state, 'done', JSON.stringify(job.error));

  const runbook = sent.filter((s) => s.includes('zephyr'));
  assert.ok(runbook.length >= 2, `the runbook's chunks were embedded: ${runbook.length}`);
  assert.equal(new Set(runbook).size, runbook.length, 'each chunk of the runbook went to the model once');
  // The control: every filler, each its own input, was embedded.
  assert.equal(sent.filter((s) => s.includes('quokka counted')).length, 320 - copies.length);
  const status = await folderStatus(e);
  assert.equal(status.chunks, 320 - copies.length + copies.length * runbook.length);
  assert.equal(status.embedded_chunks, status.chunks);
  const hits = await vectorHitPaths(e, 'zephyr release changes how failover works');
  for (const i of copies) assert.ok(hits.has(join(e, `r-${String(i).padStart(3, '0')}.md`)), [...hits].join(', '));
});

test('the reuse key is what the model is given: equal text under another title line is embedded again', async () => {
  // A plain-text chunk's title line is its file's name, so equal text in two differently named
  // files is two different model inputs; the same name in another folder is the same input.
  const d = join(root, 'd');
  await mkdir(join(d, 'more'), { recursive: true });
  const text = `${Array.from({ length: 30 }, (_, k) => `wombat ledger entry ${k} balances the quarter`).join('. ')}.\n`;
  await writeFile(join(d, 'alpha.txt'), text);
  await writeFile(join(d, 'beta.txt'), text);
  await engine.addFolder({ path: d });
  sent.length = 0;
  await indexNow(engine, d, 'create');
  const alpha = sent.filter((s) => s.startsWith('alpha.txt\n'));
  const beta = sent.filter((s) => s.startsWith('beta.txt\n'));
  assert.ok(alpha.length >= 1, `alpha's text went to the model under its title: ${JSON.stringify(sent)}`);
  assert.equal(beta.length, alpha.length, `beta's equal text went to the model under its own title`);
  assert.equal(new Set(sent).size, sent.length, 'still no input sent twice');
  let status = await folderStatus(d);
  assert.equal(status.embedded_chunks, status.chunks);

  // The control beside it: the same name and text in another place is the same input, copied at write.
  sent.length = 0;
  await writeFile(join(d, 'more', 'alpha.txt'), text);
  await indexNow(engine, d, 'update');
  assert.deepEqual(sent, [], 'the same title line and text reused the vector');
  status = await folderStatus(d);
  assert.equal(status.embedded_chunks, status.chunks);
  const hits = await vectorHitPaths(d, 'wombat ledger entry balances the quarter');
  for (const f of ['alpha.txt', 'beta.txt', join('more', 'alpha.txt')])
    assert.ok(hits.has(join(d, f)), `${f} has a vector: ${[...hits].join(', ')}`);
});
