import type { Node } from 'web-tree-sitter';

/** How one grammar names its definitions, imports and references. */
export interface LangSpec {
  /** Node type -> symbol kind (`function` becomes `method` inside a class-like container). */
  defs: Record<string, string>;
  /** Nodes that wrap a definition and belong to its range (`export`, decorators, templates). */
  wrappers?: ReadonlySet<string>;
  /** The definition's name, or null to ignore the node. Default: the `name` field. */
  name?: (node: Node) => string | null;
  /** Import specifiers this node carries, or null when it is not an import. */
  imports: (node: Node) => string[] | null;
  /** The identifier a call-like node refers to, or null. */
  callee: (node: Node) => string | null;
  /** Node types whose text is a type reference. */
  typeRefs: ReadonlySet<string>;
}

export const CLASS_LIKE: ReadonlySet<string> = new Set([
  'class',
  'interface',
  'struct',
  'trait',
  'impl',
  'enum',
  'record',
  'module',
  'object',
]);

export function field(node: Node, name: string): Node | null {
  return node.childForFieldName(name);
}

export function unquote(s: string): string {
  return s.trim().replace(/^[`'"<]|[`'">]$/g, '');
}

/** The last identifier of a member chain: `a.b.save` -> `save`. */
export function lastIdentifier(node: Node | null, memberFields: string[]): string | null {
  if (!node) return null;
  if (/identifier$|^constant$|^name$/.test(node.type)) return node.text;
  for (const f of memberFields) {
    const child = field(node, f);
    if (child) return lastIdentifier(child, memberFields);
  }
  return null;
}

export function stringArg(node: Node | null): string | null {
  if (!node) return null;
  const s = node.namedChildren.find((c) => c !== null && /string/.test(c.type));
  return s ? unquote(s.text) : null;
}
