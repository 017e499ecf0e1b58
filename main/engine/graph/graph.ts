import type { EdgeRow, NodeRow } from './rows.js';
import { resolveTarget } from './resolve.js';

export interface GraphTarget {
  path: string;
  line: number;
  /** Why it was reached, for the score. */
  via: 'name' | 'import' | 'link' | 'reference' | 'imported_by';
  /** Last line of the definition, when the target is one. */
  endLine?: number;
}

interface FolderGraph {
  nodesByPath: Map<string, NodeRow[]>;
  edgesByPath: Map<string, EdgeRow[]>;
  relByPath: Map<string, string>;
  pathByRel: Map<string, string>;
  /** Who imports a file (target rel → importing paths); rebuilt lazily after a change. */
  importedBy: Map<string, string[]> | null;
}

/**
 * The graph leg's in-memory view of the `graph_nodes`/`graph_edges` tables: files, symbols and
 * headings as nodes; imports, links and symbol references as edges. It is kept in step with every
 * write so queries never touch the tables.
 */
export class GraphIndex {
  private folders = new Map<string, FolderGraph>();
  private byName = new Map<string, NodeRow[]>();

  private folder(folder: string): FolderGraph {
    let g = this.folders.get(folder);
    if (!g) {
      g = {
        nodesByPath: new Map(),
        edgesByPath: new Map(),
        relByPath: new Map(),
        pathByRel: new Map(),
        importedBy: null,
      };
      this.folders.set(folder, g);
    }
    return g;
  }

  /** Replaces what the graph knows of one file. */
  setFile(folder: string, path: string, rel: string, nodes: NodeRow[], edges: EdgeRow[]): void {
    this.removeFile(folder, path);
    const g = this.folder(folder);
    g.nodesByPath.set(path, nodes);
    g.edgesByPath.set(path, edges);
    g.relByPath.set(path, rel);
    g.pathByRel.set(rel, path);
    g.importedBy = null;
    for (const n of nodes) for (const key of nameKeys(n.name)) pushTo(this.byName, key, n);
  }

  removeFile(folder: string, path: string): void {
    const g = this.folders.get(folder);
    if (!g) return;
    for (const n of g.nodesByPath.get(path) ?? []) {
      for (const key of nameKeys(n.name)) {
        const list = this.byName.get(key);
        if (!list) continue;
        const kept = list.filter((x) => x !== n);
        if (kept.length) this.byName.set(key, kept);
        else this.byName.delete(key);
      }
    }
    const rel = g.relByPath.get(path);
    if (rel !== undefined) g.pathByRel.delete(rel);
    g.nodesByPath.delete(path);
    g.edgesByPath.delete(path);
    g.relByPath.delete(path);
    g.importedBy = null;
  }

  removeFolder(folder: string): void {
    const g = this.folders.get(folder);
    if (!g) return;
    for (const path of [...g.nodesByPath.keys()]) this.removeFile(folder, path);
    this.folders.delete(folder);
  }

  /** The index was replaced by an empty one (IndexStore.moveAside). */
  clear(): void {
    this.folders.clear();
    this.byName.clear();
  }

  /**
   * Definitions whose name the query spells out (an identifier, a heading). A code definition
   * outranks a heading of the same name: asking for `reconcileAccounts` is asking for the code,
   * and the page that documents it is one link away anyway. Only a query that is names is asked
   * for them: a sentence that mentions a name in passing ("Returns an OrderedSet of …") asks for
   * what it describes, and the named definition outvoted the text legs' answer (code-search
   * docstrings: 4 of 4 name hits on sentence queries ranked the answer lower, none higher).
   */
  nameMatches(query: string, folders: Set<string>, limit: number): GraphTarget[] {
    const code: GraphTarget[] = [];
    const headings: GraphTarget[] = [];
    for (const token of queryNames(query)) {
      for (const n of this.byName.get(token) ?? []) {
        if (!folders.has(n.folder)) continue;
        (n.kind === 'heading' ? headings : code).push({
          path: n.path,
          line: n.start_line,
          endLine: n.end_line,
          via: 'name',
        });
      }
    }
    return (code.length > 0 ? code : headings).slice(0, limit);
  }

  /**
   * Code definitions named exactly `word` (case-insensitive), for a one-word query: `tokenize`
   * or `Field` look like plain words, but in a folder that defines them they are names.
   */
  codeDefinitions(word: string, folders: Set<string>, limit: number): GraphTarget[] {
    const out: GraphTarget[] = [];
    for (const n of this.byName.get(word.toLowerCase()) ?? []) {
      if (n.kind === 'heading' || !folders.has(n.folder)) continue;
      out.push({ path: n.path, line: n.start_line, endLine: n.end_line, via: 'name' });
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * One hop out of a chunk, along the edges the chunk itself holds: what it imports or links to,
   * the definitions it references, and the chunks elsewhere that reference a definition it holds.
   * A file's relations seen from any of its chunks (the imports at its top, the files importing
   * it) say nothing about that chunk: from the text legs' best chunks they put the imported and
   * importing files' headers above the answer (code-search docstrings), and never raised one.
   */
  neighbours(folder: string, path: string, startLine: number, endLine: number, limit: number): GraphTarget[] {
    const g = this.folders.get(folder);
    if (!g) return [];
    const rel = g.relByPath.get(path);
    if (rel === undefined) return [];
    const known = g.pathByRel;
    const edges = g.edgesByPath.get(path) ?? [];
    // A name a chunk uses means a definition it can see: its own file's or an imported file's. A
    // same-named definition elsewhere in the folder is a coincidence (two unrelated `parse`s).
    const visible = new Set([path]);
    for (const e of edges)
      if (e.kind === 'import')
        for (const r of resolveTarget(rel, e.target, e.kind, known)) visible.add(g.pathByRel.get(r) ?? '');
    const out: GraphTarget[] = [];
    for (const e of edges) {
      if (out.length >= limit) break;
      if (e.line < startLine || e.line > endLine) continue;
      if (e.kind === 'reference') {
        for (const n of this.byName.get(e.target.toLowerCase()) ?? []) {
          if (n.folder !== folder || !visible.has(n.path) || n.kind === 'heading') continue;
          if (!(n.path === path && n.start_line >= startLine && n.start_line <= endLine))
            out.push({ path: n.path, line: n.start_line, via: 'reference' });
        }
        continue;
      }
      for (const targetRel of resolveTarget(rel, e.target, e.kind, known)) {
        const targetPath = g.pathByRel.get(targetRel);
        if (targetPath && targetPath !== path)
          out.push({
            path: targetPath,
            line: anchorLine(g, targetPath, e.target),
            via: e.kind === 'link' ? 'link' : 'import',
          });
      }
    }
    // The callers: an importing file's references to a name this chunk defines.
    const defined = new Set(
      (g.nodesByPath.get(path) ?? [])
        .filter((n) => n.kind !== 'heading' && n.start_line >= startLine && n.start_line <= endLine)
        .flatMap((n) => nameKeys(n.name)),
    );
    for (const otherPath of defined.size > 0 ? (importers(g).get(rel) ?? []) : []) {
      if (otherPath === path) continue;
      for (const e of g.edgesByPath.get(otherPath) ?? []) {
        if (out.length >= limit) break;
        if (e.kind === 'reference' && defined.has(e.target.toLowerCase()))
          out.push({ path: otherPath, line: e.line, via: 'imported_by' });
      }
    }
    return out.slice(0, limit);
  }

  stats(): { files: number; nodes: number; edges: number } {
    let files = 0,
      nodes = 0,
      edges = 0;
    for (const g of this.folders.values()) {
      files += g.relByPath.size;
      for (const n of g.nodesByPath.values()) nodes += n.length;
      for (const e of g.edgesByPath.values()) edges += e.length;
    }
    return { files, nodes, edges };
  }
}

/** The reverse of the import edges of a folder, built once per change rather than per query. */
function importers(g: FolderGraph): Map<string, string[]> {
  if (g.importedBy) return g.importedBy;
  const map = new Map<string, string[]>();
  for (const [path, edges] of g.edgesByPath) {
    const rel = g.relByPath.get(path) ?? '';
    for (const e of edges) {
      if (e.kind !== 'import') continue;
      for (const target of resolveTarget(rel, e.target, e.kind, g.pathByRel)) pushTo(map, target, path);
    }
  }
  g.importedBy = map;
  return map;
}

function anchorLine(g: FolderGraph, path: string, target: string): number {
  const anchor = target.split('#')[1];
  if (!anchor) return 1;
  const slug = anchor.toLowerCase();
  const n = (g.nodesByPath.get(path) ?? []).find((x) => slugify(x.name.split(' > ').pop() ?? '') === slug);
  return n?.start_line ?? 1;
}

function slugify(s: string): string {
  return s
    .toLowerCase()
    .trim()
    .replace(/[^\w\s-]/g, '')
    .replace(/\s+/g, '-');
}

/** A node is found by its full name and by its last segment (`save` finds `UserService.save`). */
function nameKeys(name: string): string[] {
  const lc = name.toLowerCase();
  const last =
    lc
      .split(/[.:>#]+/)
      .pop()
      ?.trim() ?? lc;
  return last && last !== lc ? [lc, last] : [lc];
}

/**
 * A query of a few plain words that spells a name out ("reflection object", "sorted index by"):
 * the name it would be in camelCase or snake_case. Asking in words for `ReflectionObject` is
 * asking for its definition, as much as asking for the identifier itself.
 */
function spelledNames(query: string): string[] {
  const words = query.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  if (words.length < 2 || words.length > 4 || words.join(' ') !== query.trim().toLowerCase().replace(/\s+/g, ' '))
    return [];
  // Words carry no leading underscore: "fix path" spells the private `_FixPath` as much as `FixPath`.
  const names = [words.join(''), words.join('_')];
  return [...names, ...names.map((n) => `_${n}`)];
}

/** The names a query is made of: a spelled-out name, or identifiers and nothing else. */
function queryNames(query: string): string[] {
  const spelled = spelledNames(query);
  if (spelled.length > 0) return spelled;
  const words = query.trim().split(/\s+/);
  return words.every((w) => identifiers(w).length > 0) ? identifiers(query) : [];
}

/** Identifier-like tokens of a query: code names are matched whole, case-insensitively. */
export function identifiers(query: string): string[] {
  const tokens = query.match(/[A-Za-z_][A-Za-z0-9_]*(?:[.:][A-Za-z_][A-Za-z0-9_]*)*/g) ?? [];
  // Plain lower-case words are too ambiguous to be names; keep tokens that look like code.
  return [
    ...new Set(
      tokens
        .filter((t) => t.length >= 3 && (/[A-Z_]/.test(t.slice(1)) || /[._:]/.test(t) || /^[A-Z][a-z]+[A-Z]/.test(t)))
        .map((t) => t.toLowerCase()),
    ),
  ];
}

/** Appends `value` to the list at `key` (a multimap over Map). */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
