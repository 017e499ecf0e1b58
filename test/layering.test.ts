// The layering rules of DEVELOPERS.md, read straight from the sources so that they hold even if
// the lint configuration is changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function sources(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(full).isDirectory()) out = out.concat(sources(full));
    else if (/\.(ts|tsx|mts)$/.test(name)) out.push(full);
  }
  return out;
}

interface Import { spec: string; typeOnly: boolean; line: string }

/** Every static import/export-from, dynamic import() and require() in a file. */
export function importsOf(text: string): Import[] {
  const found: Import[] = [];
  const re = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = m[3] ?? m[4] ?? m[5] ?? m[6];
    found.push({ spec, typeOnly: Boolean(m[2]), line: m[0].trim() });
  }
  return found;
}

function violations(dir: string, bad: (imp: Import, file: string) => boolean): string[] {
  const base = join(root, dir);
  let files: string[] = [];
  try { files = sources(base); } catch { return []; }
  return files.flatMap((f) => importsOf(readFileSync(f, 'utf8')).filter((i) => bad(i, f)).map((i) => `${relative(root, f)}: ${i.line}`));
}

test('the import reader sees static, type-only, dynamic and require imports', () => {
  const imps = importsOf(`import a from 'electron';\nimport type { X } from '../common/x.js';\nconst m = await import('electron');\nrequire("electron");\nexport { y } from './y.js';`);
  assert.deepEqual(imps.map((i) => [i.spec, i.typeOnly]), [['electron', false], ['../common/x.js', true], ['electron', false], ['electron', false], ['./y.js', false]]);
});

test('engine code never imports electron, the app shell or the renderer', () => {
  const v = violations('main/engine', (i) => i.spec === 'electron' || i.spec.startsWith('electron/') || /(^|\/)(app|preload|renderer)(\/|$)/.test(i.spec) && i.spec.startsWith('.'));
  assert.deepEqual(v, []);
});

test('main/common imports nothing but itself', () => {
  const v = violations('main/common', (i) => !i.spec.startsWith('./'));
  assert.deepEqual(v, []);
});

test('the renderer imports the shared contract as types only, and never node or electron', () => {
  const v = violations('renderer/src', (i) =>
    i.spec === 'electron' || i.spec.startsWith('node:') || /main\/(engine|app)/.test(i.spec) || (/main\/common/.test(i.spec) && !i.typeOnly));
  assert.deepEqual(v, []);
});

test('preload imports only electron and the shared contract types', () => {
  const v = violations('preload', (i) => !(i.spec === 'electron' || (/main\/common/.test(i.spec) && i.typeOnly)));
  assert.deepEqual(v, []);
});
