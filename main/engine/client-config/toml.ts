/**
 * Codex's `config.toml`, edited without losing a byte of the person's file: a full TOML round
 * trip (smol-toml stringify) would drop their comments and layout, so only the text of Cairn's
 * own entry is touched. The file is parsed with smol-toml first (a file that does not parse is
 * refused, not rewritten); every statement whose key path lands in `mcp_servers.cairn`, in any
 * spelling (`[mcp_servers.cairn]` and its sub-tables, quoted headers, dotted keys at the top or
 * under `[mcp_servers]`, an inline table), is cut; the new table is appended; and the result is
 * parsed back and must equal the original document with exactly that one entry replaced. Any
 * other outcome (e.g. `mcp_servers` written as one inline table, which a header cannot extend)
 * is refused with a clear error and the file is left as it was.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'smol-toml';
import { CairnError } from '../errors.js';

function tomlString(s: string): string {
  return JSON.stringify(s); // a JSON string is a valid TOML basic string
}

function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

function tomlValue(v: unknown): string {
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (v && typeof v === 'object') {
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`)
      .join(', ')} }`;
  }
  throw new Error(`cannot write ${typeof v} as TOML`);
}

export function tomlTable(path: string[], entries: Record<string, unknown>, eol = '\n'): string {
  const lines = [`[${path.map(tomlKey).join('.')}]`];
  for (const [k, v] of Object.entries(entries)) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
  return lines.join(eol) + eol;
}

interface Statement {
  start: number;
  end: number; // exclusive, including the line break
  kind: 'header' | 'pair' | 'trivia';
  path: string[];
}

/** Reads a dotted key (bare, "basic" or 'literal' parts) at `i`; returns the parts and where it ended. */
function readKey(text: string, i: number): { parts: string[]; end: number } | null {
  const parts: string[] = [];
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      try {
        parts.push(JSON.parse(text.slice(i, j + 1)) as string);
      } catch {
        return null;
      }
      i = j + 1;
    } else if (text[i] === "'") {
      const j = text.indexOf("'", i + 1);
      if (j < 0) return null;
      parts.push(text.slice(i + 1, j));
      i = j + 1;
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
      if (!m) return null;
      parts.push(m[0]);
      i += m[0].length;
    }
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== '.') return { parts, end: i };
    i++;
  }
}

/** Splits a TOML document into statements, keeping strings, multi-line values and comments whole. */
function statements(text: string): Statement[] {
  const out: Statement[] = [];
  let i = 0;
  while (i < text.length) {
    const start = i;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] === '\n' || text[i] === '\r' || text[i] === '#' || i >= text.length) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
      out.push({ start, end: i, kind: 'trivia', path: [] });
      continue;
    }
    let kind: Statement['kind'] = 'pair';
    let path: string[] = [];
    if (text[i] === '[') {
      kind = 'header';
      const arr = text[i + 1] === '[';
      const key = readKey(text, i + (arr ? 2 : 1));
      if (key) path = key.parts;
    } else {
      const key = readKey(text, i);
      if (key) path = key.parts;
    }
    // Scan to the end of the statement: the line break outside strings and brackets.
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '"' || c === "'") {
        const triple = text.startsWith(c.repeat(3), i);
        if (triple) {
          const close = text.indexOf(c.repeat(3), i + 3);
          i = close < 0 ? text.length : close + 3;
          while (text[i] === c) i++; // up to two quotes may end the content
        } else {
          i++;
          while (i < text.length && text[i] !== c && text[i] !== '\n') i += c === '"' && text[i] === '\\' ? 2 : 1;
          i++;
        }
        continue;
      }
      if (c === '#') {
        while (i < text.length && text[i] !== '\n') i++;
        continue;
      }
      if (c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
      else if (c === '\n' && depth <= 0) {
        i++;
        break;
      }
      i++;
    }
    out.push({ start, end: i, kind, path });
  }
  return out;
}

function startsWith(path: string[], prefix: string[]): boolean {
  return prefix.every((p, i) => path[i] === p);
}

function without(doc: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const copy = structuredClone(doc);
  let node: Record<string, unknown> | undefined = copy;
  for (const p of path.slice(0, -1)) {
    const next: unknown = node?.[p];
    node = next && typeof next === 'object' && !Array.isArray(next) ? (next as Record<string, unknown>) : undefined;
  }
  if (node) delete node[path[path.length - 1]];
  return copy;
}

function parseOrRefuse(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new CairnError(
      'conflict',
      `${file} is not valid TOML (${(err as Error).message.split('\n')[0]}); it was left untouched.`,
      {
        remedy: 'Fix the file (Codex would refuse it too), or add the snippet by hand.',
      },
    );
  }
}

/**
 * `text` with the table at `path` (two parts: `mcp_servers`, `cairn`) replaced by `entries`, or
 * appended; every other byte kept. Throws CairnError('conflict') rather than return a file that
 * would not parse back to exactly that.
 */
export function mergeTomlTable(
  text: string,
  path: string[],
  entries: Record<string, unknown>,
  file = 'config.toml',
): string {
  const original = parseOrRefuse(text, file);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const stmts = statements(text);
  const cut = new Set<number>();
  let table: string[] = [];
  let inOurs = false;
  stmts.forEach((s, n) => {
    if (s.kind === 'header') {
      table = s.path;
      inOurs = startsWith(table, path);
      if (inOurs) cut.add(n);
      else {
        // Comments right above the next table belong to it, not to ours.
        for (let k = n - 1; k >= 0 && stmts[k].kind === 'trivia' && cut.has(k); k--) cut.delete(k);
      }
      return;
    }
    if (inOurs) {
      cut.add(n);
      return;
    }
    if (s.kind === 'pair' && startsWith([...table, ...s.path], path)) cut.add(n);
  });
  let kept = stmts
    .filter((_, n) => !cut.has(n))
    .map((s) => text.slice(s.start, s.end))
    .join('');
  kept = kept.replace(/(\r?\n)*$/, '');
  if (kept !== '' && !kept.endsWith('\n')) kept += eol;
  const merged = (kept === '' ? '' : `${kept}${eol}`) + tomlTable(path, entries, eol);
  const expected = without(original, path);
  let node = expected;
  for (const p of path.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
  node[path[path.length - 1]] = entries;
  let back: Record<string, unknown> | null = null;
  try {
    back = parse(merged) as Record<string, unknown>;
  } catch {
    back = null;
  }
  if (!back || !isDeepStrictEqual(JSON.parse(JSON.stringify(back)), JSON.parse(JSON.stringify(expected)))) {
    throw new CairnError(
      'conflict',
      `Cairn cannot add its entry to ${file} without changing other content (${path[0]} is probably written as one inline table); it was left untouched.`,
      {
        remedy: `Add the snippet by hand, or write ${path[0]} as [${path[0]}.<name>] tables.`,
      },
    );
  }
  return merged;
}
