// The layering rules of DEVELOPERS.md, read straight from the sources so that they hold even if
// the lint configuration is changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { ENGINE_LAYERS } from '../scripts/engine-layers.mjs';

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

interface Import {
  spec: string;
  typeOnly: boolean;
  line: string;
}

/** Every static import/export-from, dynamic import() and require() in a file. */
export function importsOf(text: string): Import[] {
  const found: Import[] = [];
  const re =
    /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) {
    const spec = m[3] ?? m[4] ?? m[5] ?? m[6];
    found.push({ spec, typeOnly: Boolean(m[2]), line: m[0].trim() });
  }
  return found;
}

function violations(dir: string, bad: (imp: Import, file: string) => boolean): string[] {
  const base = join(root, dir);
  let files: string[] = [];
  try {
    files = sources(base);
  } catch {
    return [];
  }
  return files.flatMap((f) =>
    importsOf(readFileSync(f, 'utf8'))
      .filter((i) => bad(i, f))
      .map((i) => `${relative(root, f)}: ${i.line}`),
  );
}

test('the import reader sees static, type-only, dynamic and require imports', () => {
  const imps = importsOf(
    `import a from 'electron';\nimport type { X } from '../common/x.js';\nconst m = await import('electron');\nrequire("electron");\nexport { y } from './y.js';`,
  );
  assert.deepEqual(
    imps.map((i) => [i.spec, i.typeOnly]),
    [
      ['electron', false],
      ['../common/x.js', true],
      ['electron', false],
      ['electron', false],
      ['./y.js', false],
    ],
  );
});

test('engine code never imports electron, the app shell or the renderer', () => {
  const v = violations(
    'main/engine',
    (i) =>
      i.spec === 'electron' ||
      i.spec.startsWith('electron/') ||
      (/(^|\/)(app|preload|renderer)(\/|$)/.test(i.spec) && i.spec.startsWith('.')),
  );
  assert.deepEqual(v, []);
});

test('LanceDB is imported only by the index store (main/engine/index/), type imports counted', () => {
  const lance = (i: Import) => i.spec === '@lancedb/lancedb' || i.spec.startsWith('@lancedb/');
  const outside = violations('main', (i, f) => lance(i) && !f.startsWith(join(root, 'main/engine/index/')));
  assert.deepEqual(outside, []);
  // Control: the same reader finds the store's own imports, so an empty list above means something.
  assert.ok(violations('main/engine/index', lance).length > 0);
});

test('main/common imports nothing but itself', () => {
  const v = violations('main/common', (i) => !i.spec.startsWith('./'));
  assert.deepEqual(v, []);
});

test('the renderer imports the shared contract (plain TypeScript, no Node), never node, electron, the engine or the shell', () => {
  const v = violations(
    'renderer/src',
    (i) => i.spec === 'electron' || i.spec.startsWith('node:') || /main\/(engine|app)/.test(i.spec),
  );
  assert.deepEqual(v, []);
});

test('preload imports only electron and the shared contract types', () => {
  const v = violations('preload', (i) => !(i.spec === 'electron' || (/main\/common/.test(i.spec) && i.typeOnly)));
  assert.deepEqual(v, []);
});

// ---- The engine's inner layers and cycles, on the resolved import graph ----

/** The source file a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx`), or null for a package. */
function resolveSpec(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const p of [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
  ])
    if (existsSync(p) && statSync(p).isFile()) return p;
  return null;
}

/**
 * file -> files it imports, `import type` included: a type-only cycle loads fine (it is erased)
 * but still ties two modules together, so neither can be understood or moved alone.
 */
function importGraph(dirs: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const dir of dirs) {
    for (const f of sources(resolve(root, dir))) {
      graph.set(
        f,
        importsOf(readFileSync(f, 'utf8')).flatMap((i) => resolveSpec(f, i.spec) ?? []),
      );
    }
  }
  return graph;
}

/** Every strongly connected component of more than one file, or a file importing itself (Tarjan). */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const ENGINE = join(root, 'main/engine');

/** The layer index of an engine file, or null when it is in no layer (a new folder or root file must be placed). */
function layerOf(file: string): number | null {
  const rel = relative(ENGINE, file).split('\\').join('/');
  const top = rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : null;
  const at = ENGINE_LAYERS.findIndex((l) => (top ? l.folders.includes(top) : l.files.includes(rel)));
  return at === -1 ? null : at;
}

test('the cycle finder finds a cycle, a self-import and a longer loop, and passes a chain (control)', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['a']],
    ['c', ['c']],
    ['d', ['e']],
    ['e', ['f']],
    ['f', ['d']],
    ['x', ['y']],
    ['y', []],
  ]);
  assert.deepEqual(cyclesOf(g).sort(), [['a', 'b'], ['c'], ['d', 'e', 'f']]);
  assert.deepEqual(
    cyclesOf(
      new Map([
        ['x', ['y']],
        ['y', ['z']],
        ['z', []],
      ]),
    ),
    [],
  );
});

test('no import cycles among main/, preload/ and renderer/ files (type-only imports count)', () => {
  const cycles = cyclesOf(importGraph(['main', 'preload', 'renderer/src'])).map((c) =>
    c.map((f) => relative(root, f)).join(' -> '),
  );
  assert.deepEqual(cycles, []);
});

test('the import graph keeps type-only imports: a cycle of `import type` is found (control: one way is none)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-layering-'));
  try {
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A { b: B }\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B { a?: A }\n");
    writeFileSync(join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
    const names = (c: string[]) => c.map((f) => relative(dir, f));
    assert.deepEqual(cyclesOf(importGraph([dir])).map(names), [['a.ts', 'b.ts']]);
    writeFileSync(join(dir, 'b.ts'), 'export interface B { n: number }\n');
    assert.deepEqual(cyclesOf(importGraph([dir])), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The engine folders that import each other (either way, type imports counted), as `a <-> b`. */
function mutualFolders(graph: Map<string, string[]>): string[] {
  const folderOf = (f: string) => {
    const rel = relative(ENGINE, f).split('\\').join('/');
    return rel.startsWith('..') || !rel.includes('/') ? null : rel.slice(0, rel.indexOf('/'));
  };
  const edges = new Set<string>();
  for (const [file, deps] of graph) {
    const a = folderOf(file);
    for (const dep of deps) {
      const b = folderOf(dep);
      if (a && b && a !== b) edges.add(`${a} -> ${b}`);
    }
  }
  return [...edges]
    .map((e) => e.split(' -> '))
    .filter(([a, b]) => a < b && edges.has(`${b} -> ${a}`))
    .map(([a, b]) => `${a} <-> ${b}`);
}

test('no two engine folders import each other: each pair has one direction (type imports count)', () => {
  assert.deepEqual(mutualFolders(importGraph(['main/engine'])), []);
  // Control: a back edge from a folder that is imported (index -> graph) is seen as a pair.
  const g = new Map([
    [join(ENGINE, 'index/store.ts'), [join(ENGINE, 'graph/graph.ts')]],
    [join(ENGINE, 'graph/graph.ts'), [join(ENGINE, 'index/schema.ts')]],
  ]);
  assert.deepEqual(mutualFolders(g), ['graph <-> index']);
});

test('every engine folder and root file belongs to a layer', () => {
  const unplaced = sources(ENGINE)
    .filter((f) => layerOf(f) === null)
    .map((f) => relative(root, f));
  assert.deepEqual(unplaced, []);
});

test('engine layers import only their own layer and the layers below (kernel, storage, ingest-search, engine, surfaces)', () => {
  const graph = importGraph(['main/engine']);
  const v: string[] = [];
  for (const [file, deps] of graph) {
    const own = layerOf(file);
    for (const dep of deps) {
      if (!dep.startsWith(ENGINE + '/')) continue;
      const theirs = layerOf(dep);
      if (own !== null && theirs !== null && theirs > own)
        v.push(
          `${relative(root, file)} (${ENGINE_LAYERS[own].name}) imports ${relative(root, dep)} (${ENGINE_LAYERS[theirs].name})`,
        );
    }
  }
  assert.deepEqual(v, []);
  // Control: the rule reads as intended on a known upward edge.
  assert.ok((layerOf(join(ENGINE, 'kernel/worker-pool.ts')) ?? 9) < (layerOf(join(ENGINE, 'index/store.ts')) ?? -1));
  assert.ok((layerOf(join(ENGINE, 'index/store.ts')) ?? 9) < (layerOf(join(ENGINE, 'mcp/server.ts')) ?? -1));
});

test('main/app imports electron, node, the contract, and of the engine only the kernel, the file door, the static server and the stdio door', () => {
  // cli/stdio-command.ts: the packaged app is its own `--mcp-stdio` launcher (runAsNode is fused off).
  const allowed = [
    'main/engine/kernel/',
    'main/engine/sources/access.ts',
    'main/engine/http/static.ts',
    'main/engine/cli/stdio-command.ts',
  ];
  const v = violations('main/app', (i, file) => {
    if (/(^|\/)(renderer|preload)(\/|$)/.test(i.spec)) return true;
    const target = resolveSpec(file, i.spec);
    if (!target) return false;
    const rel = relative(root, target);
    return rel.startsWith('main/engine/') && !allowed.some((a) => rel === a || (a.endsWith('/') && rel.startsWith(a)));
  });
  assert.deepEqual(v, []);
});
