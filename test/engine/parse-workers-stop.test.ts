/**
 * Parse workers and embedding workers are not both held through a long embedding phase: the idle
 * parse workers are stopped when one of at least 512 chunks begins (ingest/embed-phase.ts), and
 * left to their 20 s idle stop after a short one (the control).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseWorkerThreads } from '../../main/engine/ingest/parse-source.js';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';
import { seeded } from '../helpers/random.js';

const WORDS =
  'river stone garden lamp orbit copper signal harbor meadow engine lantern quartz willow canyon ember prairie'.split(
    ' ',
  );
let env: Awaited<ReturnType<typeof tempEngine>>;
let root: { dir: string; cleanup: () => Promise<void> };

before(async () => {
  env = await tempEngine();
  root = await tempDir('parse-stop');
});

after(async () => {
  await env.cleanup();
  await root.cleanup();
});

/** `files` Markdown files of `sections` sections, each a paragraph of its own words (one chunk each). */
async function folder(name: string, files: number, sections: number): Promise<string> {
  const dir = join(root.dir, name);
  await mkdir(dir, { recursive: true });
  const rnd = seeded(files * 1000 + sections);
  for (let f = 0; f < files; f++) {
    const body = Array.from({ length: sections }, (_, s) => {
      const words = Array.from({ length: 70 }, () => WORDS[rnd.int(WORDS.length)]);
      return `## Part ${f}.${s}\n\n${words.join(' ')} ${f}x${s}.\n`;
    });
    await writeFile(join(dir, `note-${f}.md`), `# Note ${f}\n\n${body.join('\n')}`);
  }
  return dir;
}

async function chunksOf(dir: string): Promise<number> {
  const status = await env.engine.status();
  return status.folders.find((x) => x.path === dir)?.chunks ?? 0;
}

test('a long embedding phase stops the idle parse workers first; a short one leaves them to their idle stop', async () => {
  const small = await folder('small', 3, 2);
  await env.engine.addFolder({ path: small });
  await indexNow(env.engine, small, 'create');
  assert.ok((await chunksOf(small)) < 512);
  assert.ok(parseWorkerThreads() >= 1, 'control: after a short embedding phase the parse workers are still there');

  const big = await folder('big', 80, 8);
  await env.engine.addFolder({ path: big });
  await indexNow(env.engine, big, 'create');
  const chunks = await chunksOf(big);
  assert.ok(chunks >= 512, `${chunks} chunks: the embedding phase is a long one`);
  assert.equal(parseWorkerThreads(), 0, 'stopped before the embedding, well before their 20 s idle stop');
});
