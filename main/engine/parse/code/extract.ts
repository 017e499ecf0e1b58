import type { Node } from 'web-tree-sitter';
import type { RefDraft, SymbolDef } from '../../types.js';
import { CLASS_LIKE, type LangSpec } from './spec.js';
import { goTypeKind } from './specs-systems.js';

/** A definition with its line range (1-based, inclusive) and the definitions nested in it. */
export interface Def {
  name: string;
  kind: string;
  startLine: number;
  endLine: number;
  /** First line of the chunk: the definition plus the comments right above it. */
  chunkStart: number;
  children: Def[];
}

export interface Extracted {
  defs: Def[];
  symbols: SymbolDef[];
  refs: RefDraft[];
}

/** References are for the graph: a bounded, deduplicated set per file is plenty. */
export const MAX_REFERENCES = 300;
const MAX_DEPTH = 400;
const NOISE = new Set([
  'self',
  'this',
  'super',
  'cls',
  'new',
  'require',
  'import',
  'print',
  'len',
  'str',
  'int',
  'String',
  'Object',
  'Error',
]);

/** Doc comments belong with what they document: the first line of the comments right above. */
function leadingCommentStart(node: Node, startLine: number): number {
  let first = startLine;
  for (let prev = node.previousNamedSibling; prev && /comment/.test(prev.type); prev = prev.previousNamedSibling) {
    if (prev.endPosition.row + 1 < first - 1) break;
    // A comment ending on the line of the previous code is a trailing comment of that code.
    first = prev.startPosition.row + 1;
  }
  return first;
}

/** Walks the syntax tree once, collecting definitions, imports and referenced identifiers. */
export function extract(root: Node, spec: LangSpec): Extracted {
  const symbols: SymbolDef[] = [];
  const refs: RefDraft[] = [];
  const seen = new Set<string>();
  let references = 0;
  const top: Def[] = [];
  // A definition's own name is not a reference to it.
  const nameIds = new Set<number>();

  const reference = (target: string | null, line: number) => {
    if (!target || target.length < 2 || NOISE.has(target) || seen.has(target) || references >= MAX_REFERENCES) return;
    seen.add(target);
    references++;
    refs.push({ kind: 'reference', target, line });
  };

  const visit = (node: Node, container: { def: Def | null; path: string[]; kind: string | null }, depth: number) => {
    if (depth > MAX_DEPTH) return;
    const line = node.startPosition.row + 1;
    const imports = spec.imports(node);
    if (imports) {
      for (const target of imports) refs.push({ kind: 'import', target, line });
    } else {
      reference(spec.callee(node), line);
      if (spec.typeRefs.has(node.type) && !nameIds.has(node.id)) reference(node.text, line);
    }
    let next = container;
    let kind = spec.defs[node.type];
    if (kind) {
      const nameNode = node.childForFieldName('name');
      if (nameNode) nameIds.add(nameNode.id);
      const name = spec.name ? spec.name(node) : (nameNode?.text ?? null);
      if (name) {
        if (node.type === 'type_spec') kind = goTypeKind(node);
        if (kind === 'function' && container.kind && CLASS_LIKE.has(container.kind)) kind = 'method';
        if (kind === 'function' && name.includes('.')) kind = 'method';
        // A wrapper (export, decorators, template<>) is part of what a reader sees as the definition.
        const outer = node.parent && spec.wrappers?.has(node.parent.type) ? node.parent : node;
        const full = [...container.path, name].join('.');
        const startLine = outer.startPosition.row + 1;
        const def: Def = {
          name: full,
          kind,
          startLine,
          endLine: outer.endPosition.row + 1,
          chunkStart: leadingCommentStart(outer, startLine),
          children: [],
        };
        // An end position at column 0 belongs to the line before (trailing newline inside the node).
        if (outer.endPosition.column === 0 && def.endLine > def.startLine) def.endLine--;
        symbols.push({ name: full, kind, startLine: def.startLine, endLine: def.endLine });
        (container.def ? container.def.children : top).push(def);
        next = { def, path: [...container.path, name], kind };
      }
    }
    for (const child of node.namedChildren) if (child) visit(child, next, depth + 1);
  };
  visit(root, { def: null, path: [], kind: null }, 0);
  return { defs: top, symbols, refs };
}
