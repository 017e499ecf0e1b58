/**
 * Command line of `bench/run.ts`: benchmark names, then options. `npm run bench:quality -- --sets
 * scifact,cranfield --modes sparse,hybrid` reaches here as `quality --sets scifact,cranfield ...`.
 */
export interface BenchArgs {
  names: string[];
  quick: boolean;
  options: Map<string, string>;
}

/** Options that take no value. Every other `--name` takes the next token (or `--name=value`). */
const FLAGS = new Set(['quick', 'reuse-index', 'no-report', 'keep-tmp', 'help']);

export function parseArgs(argv: readonly string[]): BenchArgs {
  const names: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i];
    if (!tok.startsWith('--')) {
      names.push(tok);
      continue;
    }
    const eq = tok.indexOf('=');
    const key = tok.slice(2, eq < 0 ? undefined : eq);
    if (eq >= 0) options.set(key, tok.slice(eq + 1));
    else if (FLAGS.has(key)) options.set(key, 'true');
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options.set(key, argv[++i]);
    else throw new Error(`option --${key} needs a value`);
  }
  return { names, quick: options.get('quick') === 'true', options };
}

/** A comma-separated option as a list, or the fallback when absent. */
export function listOption(options: Map<string, string>, key: string, fallback: readonly string[]): string[] {
  const raw = options.get(key);
  if (raw === undefined) return fallback.slice();
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function numberOption(options: Map<string, string>, key: string, fallback: number): number {
  const raw = options.get(key);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`option --${key} must be a number, got ${raw}`);
  return n;
}

/**
 * `--sweep search.vector_weight=0,0.1,0.2;search.rrf_k=20,60` as the list of settings variants
 * (the cartesian product), so fusion weights can be tuned without re-indexing.
 */
export function sweepVariants(raw: string | undefined): Record<string, unknown>[] {
  if (raw === undefined || raw.trim() === '') return [{}];
  let variants: Record<string, unknown>[] = [{}];
  for (const part of raw
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`--sweep expects key=v1,v2 groups separated by ';', got ${part}`);
    const key = part.slice(0, eq);
    const values = part
      .slice(eq + 1)
      .split(',')
      .map(parseValue);
    variants = variants.flatMap((v) => values.map((x) => ({ ...v, [key]: x })));
  }
  return variants;
}

/** `--setting a=1,b=convex` as a settings patch. */
export function settingsPatch(raw: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (raw === undefined) return out;
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw new Error(`--setting expects key=value pairs, got ${part}`);
    out[part.slice(0, eq)] = parseValue(part.slice(eq + 1));
  }
  return out;
}

function parseValue(s: string): unknown {
  const t = s.trim();
  if (t === 'null') return null;
  if (t === 'true' || t === 'false') return t === 'true';
  if (t !== '' && Number.isFinite(Number(t))) return Number(t);
  return t;
}
