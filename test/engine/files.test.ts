// read and grep: bounded, and never a byte from outside the indexed folders.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFixtureFolder, type FixtureInfo } from '../helpers/fixtures.js';
import { tempDir, tempEngine } from '../helpers/engine.js';
import type { Engine } from '../../main/engine/engine.js';
import { CairnError } from '../../main/engine/errors.js';

let engine: Engine;
let fx: FixtureInfo;
let root: string;
const cleanups: (() => Promise<void>)[] = [];

before(async () => {
  const f = await tempDir('files');
  cleanups.push(f.cleanup);
  root = f.dir;
  fx = await makeFixtureFolder(f.dir);
  // A sibling whose name starts with the folder's: a prefix check would let it through.
  await mkdir(`${fx.folder}-evil`);
  await writeFile(`${fx.folder}-evil/loot.txt`, 'prefix sibling secret\n');
  await symlink(fx.secretPath, join(fx.folder, 'docs', 'leak.txt'));
  const t = await tempEngine({ 'index.max_file_bytes': fx.maxFileBytes });
  engine = t.engine;
  cleanups.push(t.cleanup);
  await engine.addFolder({ path: fx.folder });
});

after(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function refused(path: string, code = 'path_outside_folders'): Promise<void> {
  await assert.rejects(engine.read({ path }), (err: unknown) => err instanceof CairnError && err.code === code, path);
}

test('read returns numbered lines of a file inside a folder, by absolute or folder-relative path', async () => {
  const sym = fx.symbols.find((s) => s.name === 'haversine_distance');
  assert.ok(sym);
  const abs = await engine.read({ path: join(fx.folder, sym.rel), start_line: sym.startLine, end_line: sym.endLine });
  assert.equal(abs.start_line, sym.startLine);
  assert.match(abs.content, new RegExp(`^\\s*${sym.startLine}│ .*haversine_distance`));
  const rel = await engine.read({ path: sym.rel, start_line: sym.startLine, end_line: sym.startLine });
  assert.equal(rel.content.trim(), abs.content.split('\n')[0].trim());
  assert.equal(rel.folder, fx.folder);
});

test('read gives a PDF page and DOCX text, the lines hits refer to', async () => {
  const p2 = await engine.read({ path: fx.pdf.rel, page: 2 });
  assert.equal(p2.page, 2);
  for (const line of fx.pdf.pages[1]) assert.ok(p2.content.includes(line), `page 2 lacks ${line}`);
  await assert.rejects(
    engine.read({ path: fx.pdf.rel, page: 9 }),
    (e: unknown) => e instanceof CairnError && e.code === 'invalid_argument',
  );
  const docx = await engine.read({ path: fx.docx.rel });
  assert.ok(docx.content.includes(fx.docx.paragraphs[0]));
});

test('every path escape is refused', async () => {
  await refused(join(fx.folder, '..', 'outside', 'secret.txt'));
  await refused('../outside/secret.txt');
  await refused(fx.secretPath);
  await refused('/etc/passwd');
  await refused(`${fx.folder}-evil/loot.txt`);
  await refused(`${fx.folder}/%2e%2e/outside/secret.txt`);
  await refused(`${fx.folder}/docs/..%2f..%2foutside/secret.txt`);
  await refused(join(fx.folder, 'docs', 'leak.txt'));
  await refused('docs/leak.txt');
  await refused(join(root, 'outside'));
});

test('an indexed folder itself is named as a folder, not as outside the folders', async () => {
  for (const path of [fx.folder, `${fx.folder}/`, join(fx.folder, 'docs')]) {
    await assert.rejects(
      engine.read({ path }),
      (e: unknown) => e instanceof CairnError && e.code === 'invalid_argument' && !/not inside/.test(e.message),
      path,
    );
  }
  // The control: the folder's parent is still outside every indexed folder.
  await refused(root);
});

test('read bounds: missing file, bad ranges', async () => {
  await assert.rejects(
    engine.read({ path: join(fx.folder, 'nope.md') }),
    (e: unknown) => e instanceof CairnError && e.code === 'not_found',
  );
  await assert.rejects(
    engine.read({ path: 'README.md', start_line: 0 }),
    (e: unknown) => e instanceof CairnError && e.code === 'invalid_argument',
  );
  await assert.rejects(
    engine.read({ path: 'README.md', start_line: 5, end_line: 2 }),
    (e: unknown) => e instanceof CairnError && e.code === 'invalid_argument',
  );
  const capped = await engine.read({ path: 'README.md', start_line: 1, end_line: 100000, max_chars: 1000 });
  assert.ok(
    capped.content.length < 1200,
    'bounded by max_chars (the fixture README is shorter than the 1,000 minimum, so no truncation is asserted here)',
  );
  await assert.rejects(
    engine.read({ path: 'README.md', max_chars: 999 }),
    (e: unknown) => e instanceof CairnError && e.code === 'invalid_argument' && e.details?.key === 'max_chars',
  );
});

test('grep finds literal and regex matches exhaustively, never in excluded or outside files', async () => {
  const lit = await engine.grep({ pattern: 'haversine_distance' });
  assert.ok(lit.matches.some((m) => m.path.endsWith('py/geo.py')));
  assert.ok(lit.matches.some((m) => m.path.endsWith('README.md')));
  const re = await engine.grep({ pattern: 'def \\w+_distance\\(', regex: true });
  assert.ok(re.matches.length >= 1 && re.matches.every((m) => /def \w+_distance\(/.test(m.text)));
  const anchored = await engine.grep({ pattern: '^def haversine_distance', regex: true });
  assert.ok(
    anchored.matches.some((m) => m.path.endsWith('py/geo.py')),
    'a ^-anchored pattern must match lines past the first',
  );
  const secret = await engine.grep({ pattern: fx.secretText });
  assert.deepEqual(secret.matches, []);
  const capped = await engine.grep({ pattern: 'e', max_matches: 3 });
  assert.equal(capped.matches.length, 3);
  assert.equal(capped.truncated, true);
  await assert.rejects(
    engine.grep({ pattern: '(', regex: true }),
    (e: unknown) => e instanceof CairnError && e.code === 'invalid_argument',
  );
  const globbed = await engine.grep({ pattern: 'distance', globs: ['py/**'] });
  assert.ok(globbed.matches.length > 0 && globbed.matches.every((m) => m.path.includes('/py/')));
});
