// The engine's inner layers, bottom first (docs/architecture.md draws them). A module may import
// its own layer and the layers below, never one above. Read by eslint.config.js and by
// test/layering.test.ts, so the rule has one statement. A folder or root file not listed here
// fails the layering test: a new one must be placed.
export const ENGINE_LAYERS = [
  {
    name: 'kernel',
    why: 'errors, shared types, the engine interface, path scope, the worker pool: no engine imports',
    folders: ['kernel'],
    files: ['errors.ts', 'types.ts', 'api.ts', 'worker-script.ts', 'thread-priority.ts', 'version.ts', 'layout.ts'],
  },
  {
    name: 'storage',
    why: 'settings on disk, the LanceDB index, the graph over it, the embedding models',
    folders: ['config', 'index', 'graph', 'embed'],
    files: [],
  },
  {
    name: 'ingest-search',
    why: 'what a folder holds (walk, rules, file door), its changes, parsing, indexing jobs, search, read and grep',
    folders: ['sources', 'watch', 'parse', 'ingest', 'jobs', 'search', 'read-grep'],
    files: [],
  },
  {
    name: 'engine',
    why: 'the composition root and the services it wires',
    folders: ['folders', 'model', 'serve'],
    files: ['engine.ts', 'starting-engine.ts', 'data-folder.ts', 'lock.ts'],
  },
  {
    name: 'surfaces',
    why: 'what the outside talks to: MCP, HTTP, the admin API, client installers, the CLI',
    folders: ['web', 'mcp', 'http', 'admin', 'client-config', 'cli'],
    files: [],
  },
];

/**
 * A regex for the relative import specifiers that reach a layer above `index`: for a file directly
 * in main/engine (`root`), or in one of its folders (at any depth, `../` as many times as needed).
 */
export function importsAbove(index, root) {
  const above = ENGINE_LAYERS.slice(index + 1);
  const folders = above.flatMap((l) => l.folders);
  const files = above.flatMap((l) => l.files.map((f) => f.replace(/\.ts$/, '').replace(/[.]/g, '\\.')));
  if (folders.length + files.length === 0) return null;
  const up = root ? '\\./' : '(\\.\\./)+';
  const parts = [];
  if (folders.length) parts.push(`^${up}(${folders.join('|')})/`);
  if (files.length) parts.push(`^${root ? '\\./' : '\\.\\./'}(${files.join('|')})\\.js$`);
  return parts.join('|');
}
