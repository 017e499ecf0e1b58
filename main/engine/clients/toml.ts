/**
 * Just enough TOML for one server table in Codex's `config.toml`: write `[mcp_servers.cairn]`
 * with string values and inline tables, and replace that table in an existing file while leaving
 * every other line as it was (a full TOML round trip would reformat the person's file).
 */

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
    return `{ ${Object.entries(v).map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`).join(', ')} }`;
  }
  throw new Error(`cannot write ${typeof v} as TOML`);
}

export function tomlTable(path: string[], entries: Record<string, unknown>): string {
  const lines = [`[${path.map(tomlKey).join('.')}]`];
  for (const [k, v] of Object.entries(entries)) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
  return lines.join('\n') + '\n';
}

/** Replaces the table (and its sub-tables) at `path` in `text`, or appends it. */
export function mergeTomlTable(text: string, path: string[], entries: Record<string, unknown>): string {
  const header = path.map(tomlKey).join('.');
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    const m = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (m) {
      const name = m[1].replace(/\s+/g, '');
      skipping = name === header || name.startsWith(`${header}.`);
    }
    if (!skipping) out.push(line);
  }
  while (out.length > 0 && out[out.length - 1].trim() === '') out.pop();
  const prefix = out.length > 0 ? `${out.join('\n')}\n\n` : '';
  return prefix + tomlTable(path, entries);
}
