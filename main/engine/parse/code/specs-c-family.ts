import type { Node } from 'web-tree-sitter';
import { field, lastIdentifier, unquote, type LangSpec } from './spec.js';

/** `int Point::norm(...)`: follow the declarator chain down to the function's name. */
function cFunctionName(node: Node): string | null {
  let d = field(node, 'declarator');
  for (let i = 0; d && i < 8; i++) {
    if (d.type === 'function_declarator') {
      const n = field(d, 'declarator');
      return n ? n.text.replace(/::/g, '.').replace(/\s+/g, '') : null;
    }
    d = field(d, 'declarator');
  }
  return null;
}

export const CPP: LangSpec = {
  defs: {
    function_definition: 'function',
    class_specifier: 'class',
    struct_specifier: 'struct',
    union_specifier: 'struct',
    enum_specifier: 'enum',
    namespace_definition: 'namespace',
  },
  wrappers: new Set(['template_declaration']),
  name: (n) => {
    if (n.type === 'function_definition') return cFunctionName(n);
    // A struct/enum used as a type (`struct point p;`) has no body: not a definition.
    if (n.type !== 'namespace_definition' && !field(n, 'body')) return null;
    return field(n, 'name')?.text ?? null;
  },
  imports: (n) => (n.type === 'preproc_include' && field(n, 'path') ? [unquote(field(n, 'path')!.text)] : null),
  callee: (n) => (n.type === 'call_expression' ? lastIdentifier(field(n, 'function'), ['field', 'name']) : null),
  typeRefs: new Set(['type_identifier']),
};

export const JAVA: LangSpec = {
  defs: {
    class_declaration: 'class',
    interface_declaration: 'interface',
    enum_declaration: 'enum',
    record_declaration: 'record',
    annotation_type_declaration: 'interface',
    method_declaration: 'function',
    constructor_declaration: 'constructor',
  },
  imports: (n) =>
    n.type === 'import_declaration' ? [n.text.replace(/^import\s+(static\s+)?|;\s*$/g, '').trim()] : null,
  callee: (n) => {
    if (n.type === 'method_invocation') return field(n, 'name')?.text ?? null;
    if (n.type === 'object_creation_expression') return lastIdentifier(field(n, 'type'), ['name']);
    return null;
  },
  typeRefs: new Set(['type_identifier']),
};

export const CSHARP: LangSpec = {
  defs: {
    class_declaration: 'class',
    struct_declaration: 'struct',
    interface_declaration: 'interface',
    enum_declaration: 'enum',
    record_declaration: 'record',
    method_declaration: 'function',
    constructor_declaration: 'constructor',
    namespace_declaration: 'namespace',
    file_scoped_namespace_declaration: 'namespace',
  },
  imports: (n) =>
    n.type === 'using_directive' ? [n.text.replace(/^(global\s+)?using\s+(static\s+)?|;\s*$/g, '').trim()] : null,
  callee: (n) => {
    if (n.type === 'invocation_expression') return lastIdentifier(field(n, 'function'), ['name']);
    if (n.type === 'object_creation_expression') return lastIdentifier(field(n, 'type'), ['name']);
    return null;
  },
  typeRefs: new Set([]),
};
