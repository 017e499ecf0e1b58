/**
 * Deterministic synthetic corpora (fixed-seed PRNG) of Markdown and source code at a target number
 * of chunks. Each Markdown section and each code function is sized to be one chunk, so the engine's
 * real chunk count lands near the target; the benchmarks report the engine's count, not this estimate.
 * Files link and import each other so the graph leg has edges to follow.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRng, type Rng } from '../lib/prng.js';
import { ADJECTIVES, NOUNS, TOPICS, VERBS } from './words.js';

export interface CorpusFile {
  rel: string;
  text: string;
}

export interface CorpusOptions {
  chunks: number;
  seed?: number;
  /** Sections or functions per file. */
  perFile?: number;
  /** Markdown files only (the peers benchmark: qmd indexes Markdown). Without it, the kinds mix. */
  markdownOnly?: boolean;
}

export interface CorpusSummary {
  files: number;
  bytes: number;
  estimated_chunks: number;
  by_kind: Record<string, number>;
}

const KINDS = ['md', 'md', 'md', 'ts', 'py', 'go'] as const;

/**
 * Chunks the engine makes of one generated file (8 sections or functions), measured with the
 * built-in model's tokenizer and chunker (2026-11: 11.75 over the kinds mix). Used only to size the
 * corpus near its target; results always report the engine's own count.
 */
export const CHUNKS_PER_FILE = 11.75;
type Kind = (typeof KINDS)[number];

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const camel = (words: string[]): string => words[0] + words.slice(1).map(cap).join('');

function sentence(rng: Rng): string {
  const n = rng.int(6, 11);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    words.push(r < 0.45 ? rng.pick(NOUNS) : r < 0.75 ? rng.pick(VERBS) : r < 0.9 ? rng.pick(ADJECTIVES) : rng.pick(['the', 'a', 'of', 'to', 'and', 'in', 'for', 'with']));
  }
  return cap(words.join(' ')) + '.';
}

function paragraph(rng: Rng, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(rng)).join(' ');
}

function fileStem(i: number, kind: Kind): string {
  return `${TOPICS[i % TOPICS.length]}/${kind === 'md' ? 'docs' : 'src'}/${NOUNS[(i * 7) % NOUNS.length]}-${i}`;
}

function markdownFile(rng: Rng, i: number, sections: number, total: number): string {
  const topic = TOPICS[i % TOPICS.length];
  const out = [`# ${cap(rng.pick(ADJECTIVES))} ${topic} ${rng.pick(NOUNS)} guide ${i}`, '', paragraph(rng, 2), ''];
  for (let s = 0; s < sections; s++) {
    out.push(`## ${cap(rng.pick(VERBS))} the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`, '');
    out.push(paragraph(rng, rng.int(2, 3)), '');
    if (rng.next() < 0.3) out.push(`- ${sentence(rng)}`, `- ${sentence(rng)}`, '');
    if (rng.next() < 0.3) {
      const j = rng.int(0, total - 1);
      out.push(`See [${rng.pick(NOUNS)}](../../${fileStem(j, 'md')}.md) for the ${rng.pick(ADJECTIVES)} case.`, '');
    }
    if (rng.next() < 0.05) out.push('TODO: ' + sentence(rng), '');
  }
  return out.join('\n');
}

function fnName(rng: Rng): string {
  return camel([rng.pick(VERBS), rng.pick(ADJECTIVES), rng.pick(NOUNS)]);
}

function codeFile(rng: Rng, i: number, kind: Exclude<Kind, 'md'>, fns: number): string {
  const names = Array.from({ length: fns }, (_, k) => `${fnName(rng)}${k}`);
  const body = (name: string, indent: string, call: (n: string) => string): string[] => {
    const lines = [`${indent}// ${paragraph(rng, 1)}`];
    for (let l = 0; l < rng.int(2, 4); l++) {
      const v = camel([rng.pick(ADJECTIVES), rng.pick(NOUNS)]);
      lines.push(`${indent}${kind === 'go' ? `${v} := ` : kind === 'py' ? `${v} = ` : `const ${v} = `}${call(rng.pick(names.filter((n) => n !== name)) ?? name)}`);
    }
    if (rng.next() < 0.05) lines.push(`${indent}// FIXME: ${sentence(rng)}`);
    return lines;
  };
  const out: string[] = [];
  if (kind === 'ts') {
    out.push(`import { ${rng.pick(NOUNS)}Handler } from '../../${fileStem(rng.int(0, i + 10), 'ts')}.js';`, '');
    for (const n of names) out.push(`export function ${n}(input: string, limit = ${rng.int(1, 500)}): string {`, ...body(n, '  ', (c) => `${c}(input, limit);`), '  return input.slice(0, limit);', '}', '');
  } else if (kind === 'py') {
    out.push(`from ${TOPICS[rng.int(0, TOPICS.length - 1)]}.${rng.pick(NOUNS)} import ${rng.pick(NOUNS)}_handler`, '');
    for (const n of names) out.push(`def ${n}(value, limit=${rng.int(1, 500)}):`, ...body(n, '    ', (c) => `${c}(value, limit)`).map((l) => l.replace('//', '#')), '    return value[:limit]', '');
  } else {
    out.push(`package ${TOPICS[i % TOPICS.length]}`, '', `import "${rng.pick(NOUNS)}/${rng.pick(NOUNS)}"`, '');
    for (const n of names) out.push(`func ${cap(n)}(value string, limit int) string {`, ...body(n, '\t', (c) => `${cap(c)}(value, limit)`), '\treturn value', '}', '');
  }
  return out.join('\n');
}

/** The corpus as a lazy sequence of files; the same options give the same files, byte for byte. */
export function* corpusFiles(opts: CorpusOptions): Generator<CorpusFile> {
  const perFile = opts.perFile ?? 8;
  const total = Math.max(1, Math.ceil((opts.chunks * 8) / (perFile * CHUNKS_PER_FILE)));
  const rng = createRng(opts.seed ?? 42);
  for (let i = 0; i < total; i++) {
    const kind = opts.markdownOnly ? 'md' : KINDS[i % KINDS.length];
    const text = kind === 'md' ? markdownFile(rng, i, perFile, total) : codeFile(rng, i, kind, perFile);
    yield { rel: `${fileStem(i, kind)}.${kind}`, text };
  }
}

export function writeCorpus(dir: string, opts: CorpusOptions): CorpusSummary {
  const summary: CorpusSummary = { files: 0, bytes: 0, estimated_chunks: 0, by_kind: {} };
  const perFile = opts.perFile ?? 8;
  for (const f of corpusFiles(opts)) {
    const full = join(dir, f.rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, f.text);
    summary.files++;
    summary.bytes += Buffer.byteLength(f.text);
    summary.estimated_chunks += (perFile * CHUNKS_PER_FILE) / 8;
    const ext = f.rel.slice(f.rel.lastIndexOf('.') + 1);
    summary.by_kind[ext] = (summary.by_kind[ext] ?? 0) + 1;
  }
  summary.estimated_chunks = Math.round(summary.estimated_chunks);
  return summary;
}

/** Deterministic search queries over the corpus vocabulary (2-4 words, some identifiers). */
export function corpusQueries(count: number, seed = 7): string[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) => {
    if (i % 5 === 4) return fnName(rng);
    const n = rng.int(2, 4);
    return Array.from({ length: n }, (_, k) => (k % 2 === 0 ? rng.pick(VERBS) : rng.pick(NOUNS))).join(' ');
  });
}
