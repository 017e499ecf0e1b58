import type { Node } from 'web-tree-sitter';
import { field, lastIdentifier, stringArg, unquote, type LangSpec } from './spec.js';

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

/**
 * `const parse = (x) => ...`: a function in all but syntax, named by its single declarator.
 * `Writer.prototype.uint32 = function write_uint32(...)` and `util.isObject = function ...` are how
 * CommonJS code defines methods and helpers: named by what is assigned (`Writer.prototype.uint32`).
 */
function jsName(n: Node): string | null {
  if (n.type === 'expression_statement') {
    const a = n.namedChildren[0];
    if (a?.type !== 'assignment_expression') return null;
    const left = field(a, 'left');
    const value = field(a, 'right');
    if (!left || !value || !FUNCTION_VALUES.has(value.type)) return null;
    // `module.exports = function name()` defines `name`, the only name the file gives it.
    if (/^(module\.)?exports$/.test(left.text)) return field(value, 'name')?.text ?? null;
    return left.type === 'member_expression' || left.type === 'identifier' ? left.text : null;
  }
  if (n.type === 'lexical_declaration' || n.type === 'variable_declaration') {
    const decls = n.namedChildren.filter((c) => c?.type === 'variable_declarator');
    if (decls.length !== 1) return null;
    const value = field(decls[0]!, 'value');
    return value && FUNCTION_VALUES.has(value.type) ? (field(decls[0]!, 'name')?.text ?? null) : null;
  }
  return field(n, 'name')?.text ?? null;
}

function jsImports(n: Node): string[] | null {
  if (n.type === 'import_statement' || n.type === 'export_statement') {
    const src = field(n, 'source');
    return src ? [unquote(src.text)] : null;
  }
  if (n.type === 'call_expression') {
    const fn = field(n, 'function');
    if (fn && (fn.text === 'require' || fn.type === 'import')) {
      const s = stringArg(field(n, 'arguments'));
      return s ? [s] : null;
    }
  }
  return null;
}

export const JS: LangSpec = {
  defs: {
    function_declaration: 'function',
    generator_function_declaration: 'function',
    class_declaration: 'class',
    abstract_class_declaration: 'class',
    method_definition: 'function',
    interface_declaration: 'interface',
    type_alias_declaration: 'type',
    enum_declaration: 'enum',
    internal_module: 'namespace',
    lexical_declaration: 'function',
    variable_declaration: 'function',
    expression_statement: 'function',
  },
  wrappers: new Set(['export_statement']),
  name: jsName,
  imports: jsImports,
  callee: (n) => {
    if (n.type === 'call_expression') return lastIdentifier(field(n, 'function'), ['property']);
    if (n.type === 'new_expression') return lastIdentifier(field(n, 'constructor'), ['property']);
    return null;
  },
  typeRefs: new Set(['type_identifier']),
};

export const PYTHON: LangSpec = {
  defs: { function_definition: 'function', class_definition: 'class' },
  wrappers: new Set(['decorated_definition']),
  imports: (n) => {
    if (n.type === 'import_statement') {
      return n.namedChildren
        .map((c) => (c?.type === 'aliased_import' ? field(c, 'name')?.text : c?.text))
        .filter((s): s is string => !!s);
    }
    if (n.type === 'import_from_statement') {
      const m = field(n, 'module_name');
      return m ? [m.text] : null;
    }
    return null;
  },
  callee: (n) => (n.type === 'call' ? lastIdentifier(field(n, 'function'), ['attribute']) : null),
  typeRefs: new Set([]),
};

export const RUBY: LangSpec = {
  defs: { method: 'function', singleton_method: 'function', class: 'class', module: 'module' },
  imports: (n) => {
    if (n.type !== 'call') return null;
    const m = field(n, 'method')?.text;
    if (m !== 'require' && m !== 'require_relative' && m !== 'load') return null;
    const s = field(n, 'arguments')?.namedChildren.find((c) => c?.type === 'string');
    return s ? [unquote(s.text)] : null;
  },
  callee: (n) => (n.type === 'call' ? (field(n, 'method')?.text ?? null) : null),
  typeRefs: new Set([]),
};

export const PHP: LangSpec = {
  defs: {
    function_definition: 'function',
    class_declaration: 'class',
    interface_declaration: 'interface',
    trait_declaration: 'trait',
    enum_declaration: 'enum',
    method_declaration: 'function',
  },
  imports: (n) => {
    if (n.type === 'namespace_use_clause') return [n.text.replace(/\s+as\s+.*$/, '')];
    if (/^(include|require)(_once)?_expression$/.test(n.type)) {
      const s = n.namedChildren.find((c) => c !== null && /string/.test(c.type));
      return s ? [unquote(s.text)] : null;
    }
    return null;
  },
  callee: (n) => {
    if (n.type === 'function_call_expression') return lastIdentifier(field(n, 'function'), ['name']);
    if (n.type === 'member_call_expression' || n.type === 'scoped_call_expression')
      return field(n, 'name')?.text ?? null;
    return null;
  },
  typeRefs: new Set([]),
};

export const BASH: LangSpec = {
  defs: { function_definition: 'function' },
  imports: (n) => {
    if (n.type !== 'command') return null;
    const cmd = field(n, 'name')?.text;
    if (cmd !== 'source' && cmd !== '.') return null;
    const arg = field(n, 'argument');
    return arg ? [unquote(arg.text)] : null;
  },
  callee: (n) => (n.type === 'command' ? (field(n, 'name')?.text ?? null) : null),
  typeRefs: new Set([]),
};
