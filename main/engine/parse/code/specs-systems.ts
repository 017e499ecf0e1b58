import type { Node } from 'web-tree-sitter';
import { field, lastIdentifier, unquote, type LangSpec } from './spec.js';

/** The receiver's type name of a Go method: `func (s *Store) Get()` -> `Store`. */
function goReceiver(n: Node): string | null {
  const params = field(n, 'receiver');
  const p = params?.namedChildren.find((c) => c?.type === 'parameter_declaration');
  const t = p ? field(p, 'type') : null;
  return t ? t.text.replace(/^\*/, '').replace(/\[.*$/, '') : null;
}

export const GO: LangSpec = {
  defs: { function_declaration: 'function', method_declaration: 'method', type_spec: 'type' },
  name: (n) => {
    const name = field(n, 'name')?.text ?? null;
    if (n.type === 'method_declaration' && name) {
      const recv = goReceiver(n);
      return recv ? `${recv}.${name}` : name;
    }
    return name;
  },
  imports: (n) => (n.type === 'import_spec' && field(n, 'path') ? [unquote(field(n, 'path')!.text)] : null),
  callee: (n) => (n.type === 'call_expression' ? lastIdentifier(field(n, 'function'), ['field']) : null),
  typeRefs: new Set(['type_identifier']),
};

/** Go's `type X struct` is a type_spec; its kind depends on what it declares. */
export function goTypeKind(n: Node): string {
  const t = field(n, 'type')?.type;
  return t === 'struct_type' ? 'struct' : t === 'interface_type' ? 'interface' : 'type';
}

export const RUST: LangSpec = {
  defs: {
    function_item: 'function',
    struct_item: 'struct',
    enum_item: 'enum',
    union_item: 'struct',
    trait_item: 'trait',
    impl_item: 'impl',
    mod_item: 'module',
    type_item: 'type',
    macro_definition: 'macro',
  },
  name: (n) => {
    if (n.type === 'impl_item') return field(n, 'type')?.text.replace(/<.*$/, '') ?? null;
    // `mod foo;` declares a file module: an import, not a definition here.
    if (n.type === 'mod_item' && !field(n, 'body')) return null;
    return field(n, 'name')?.text ?? null;
  },
  imports: (n) => {
    if (n.type === 'use_declaration') {
      const arg = field(n, 'argument');
      return arg ? [arg.text] : null;
    }
    if (n.type === 'mod_item' && !field(n, 'body')) return [field(n, 'name')?.text ?? ''].filter(Boolean);
    if (n.type === 'extern_crate_declaration') return [field(n, 'name')?.text ?? ''].filter(Boolean);
    return null;
  },
  callee: (n) => {
    if (n.type === 'call_expression') return lastIdentifier(field(n, 'function'), ['field', 'name']);
    if (n.type === 'macro_invocation') return field(n, 'macro')?.text ?? null;
    return null;
  },
  typeRefs: new Set(['type_identifier']),
};
