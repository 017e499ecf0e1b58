// grep's fast paths (byte prefilter, one synchronous read per file) must give exactly what the plain
// algorithm gives: every file decoded, split on '\n', each line tested. That algorithm is spelled
// out here as the oracle, over walkFolder's files, and run on a generated folder full of edge cases;
// where ripgrep is installed, match counts per file are held to it as well.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GrepMatch } from '../../main/common/search.js';
import type { GrepRequest } from '../../main/common/requests.js';
import type { FolderSpec } from '../../main/common/settings.js';
import { grepFolders } from '../../main/engine/read-grep/grep.js';
import { GrepPool } from '../../main/engine/read-grep/grep-pool.js';
import { decodeText } from '../../main/engine/parse/index.js';
import { globMatcher } from '../../main/engine/search/filters.js';
import { walkFolder, type WalkOptions } from '../../main/engine/sources/index.js';
import { tempDir } from '../helpers/engine.js';
import { writeTree } from '../sources/walk-helpers.js';
import { seeded } from '../helpers/random.js';

const walk: WalkOptions = { maxFileBytes: 1 << 20, respectGitignore: true, extraExcludes: [] };
let root: string;
let cleanup: () => Promise<void>;

/** Deterministic pseudo-random picks of fixture pieces. */
function rng(seed: number): (n: number) => number {
  return seeded(seed).int;
}

const WORDS = [
  'retry the',
  'Retry The',
  'RETRY THE',
  'TODO: Fix',
  'TODO: later',
  'FIXME',
  'fixme',
  'func FlushAll7(',
  'func Flush(',
  'limit=493)',
  'limit=4x)',
  '## Rotate the',
  'encrypted ledger',
  'café',
  'CAFÉ',
  '日本語',
  'naïve',
  '😀',
  'colour',
  'color',
  'the',
  'a\tb',
  'x',
  'ſ',
  'K',
  'Kelvin',
  '[link](../../payments/x.md)',
  'e',
];

function line(pick: (n: number) => number, portable: boolean): string {
  // Long s and the Kelvin sign fold to ASCII letters in ripgrep's case folding, not in JavaScript's.
  const words = portable ? WORDS.filter((w) => w !== 'ſ' && w !== 'K') : WORDS;
  const n = pick(6);
  const parts = Array.from({ length: n }, () => words[pick(words.length)]);
  // Some lines start with a match, some end with one, some are long enough to be cut at 400 characters.
  if (pick(20) === 0) parts.push('z'.repeat(420), 'retry the');
  return parts.join(pick(3) === 0 ? '' : ' ');
}

/** A file of generated lines; `portable` keeps to what JavaScript and ripgrep read alike. */
function fileText(pick: (n: number) => number, portable: boolean): string {
  const lines = Array.from({ length: pick(30) }, () => line(pick, portable));
  const eol = pick(4) === 0 ? '\r\n' : '\n';
  return lines.join(eol) + (pick(2) === 0 ? eol : '');
}

function tree(seed: number, count: number, portable: boolean): Record<string, string | Buffer> {
  const pick = rng(seed);
  const files: Record<string, string | Buffer> = {};
  for (let i = 0; i < count; i++) {
    const dir = ['', 'docs/', 'src/', 'src/deep/'][pick(4)];
    const ext = ['md', 'ts', 'py', 'txt'][pick(4)];
    let content: string | Buffer = fileText(pick, portable);
    if (!portable) {
      const kind = pick(8);
      // A UTF-8 BOM; Windows-1252 text (not UTF-8, so decoded differently); a NUL past the sniff.
      if (kind === 0) content = `\uFEFF${content}`;
      else if (kind === 1)
        content = Buffer.from([...content].map((ch) => (ch.charCodeAt(0) > 0xff ? '?' : ch)).join(''), 'latin1');
      else if (kind === 2)
        content = Buffer.concat([
          Buffer.from(content),
          Buffer.alloc(9000, 32),
          Buffer.from([0, 10]),
          Buffer.from('retry the\n'),
        ]);
    }
    files[`${dir}f${String(i).padStart(3, '0')}.${ext}`] = content;
  }
  return files;
}

/** The plain algorithm grep had before its fast paths, kept as the reference. */
async function oracle(
  req: GrepRequest,
  spec: FolderSpec,
): Promise<{ matches: GrepMatch[]; files_searched: number; truncated: boolean }> {
  const source = req.regex ? req.pattern : req.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(source, req.case_sensitive === false ? 'i' : '');
  const keep = globMatcher(req.globs ?? []);
  const max = req.max_matches ?? 200;
  const out = { matches: [] as GrepMatch[], files_searched: 0, truncated: false };
  for await (const item of walkFolder(spec, walk)) {
    if (!('file' in item) || (keep && !keep(item.file.rel))) continue;
    out.files_searched++;
    const text = decodeText(await readFile(item.file.path));
    // A final newline ends the last line; it does not start an empty one (ripgrep's count too).
    const lines = text === '' ? [] : text.split('\n').slice(0, text.endsWith('\n') ? -1 : undefined);
    for (let i = 0; i < lines.length; i++) {
      if (!re.test(lines[i])) continue;
      if (out.matches.length >= max) return { ...out, truncated: true };
      out.matches.push({
        path: item.file.path,
        line: i + 1,
        text: lines[i].length > 400 ? `${lines[i].slice(0, 400)}…` : lines[i],
      });
    }
  }
  return out;
}

const LITERALS = [
  'retry the',
  'TODO: ',
  'FIXME',
  'café',
  'CAFÉ',
  '日本',
  '😀',
  'a\tb',
  'e',
  'ſ',
  'K',
  '\uFEFFretry',
  'é',
  'x\ny',
  'the\r',
  '[link]',
];
const REGEXES = [
  'func Flush[A-Za-z]+[0-9]\\(',
  '(TODO|FIXME): [A-Z]',
  '^## Rotate the',
  'the$',
  'the\\r$',
  '^$',
  'colou?r',
  'caf.$',
  'limit=49[0-9]\\)',
  '\\bretry\\b',
  'é+',
  '[^\\x00-\\x7f]{2}',
  'retry the.*z{400}',
  '\\]\\(\\.\\./\\.\\./payments',
  '^(retry|TODO)',
  'Rotate the$',
];

before(async () => {
  const t = await tempDir('grep');
  root = t.dir;
  cleanup = t.cleanup;
  await writeTree(join(root, 'mixed'), tree(1, 160, false));
  await writeTree(join(root, 'portable'), tree(2, 120, true));
});

/** One worker, as on a single-core machine: matching still never runs on the main thread. */
const onePool = new GrepPool(1);

after(async () => {
  onePool.close();
  await cleanup();
});

test('grep gives what the plain algorithm gives, for literal and regex, either case, on every kind of file', async () => {
  const spec = { path: join(root, 'mixed') };
  let total = 0;
  for (const regex of [false, true]) {
    for (const pattern of regex ? REGEXES : LITERALS) {
      for (const case_sensitive of [true, false]) {
        const req: GrepRequest = { pattern, regex, case_sensitive, max_matches: 5000 };
        const want = await oracle(req, spec);
        assert.deepEqual(await grepFolders(req, [spec], walk), want, `workers: ${JSON.stringify(req)}`);
        assert.deepEqual(await grepFolders(req, [spec], walk, onePool), want, `one worker: ${JSON.stringify(req)}`);
        total += want.matches.length;
      }
    }
  }
  // The fixture is rich enough that most patterns find something.
  assert.ok(total > 1000, `only ${total} matches`);
});

test('grep stops at max_matches in walk order, and honours globs, as the plain algorithm does', async () => {
  const spec = { path: join(root, 'mixed') };
  for (const req of [
    { pattern: 'retry the', max_matches: 7 },
    { pattern: 'e', max_matches: 1 },
    { pattern: '(TODO|FIXME): [A-Z]', regex: true, max_matches: 13 },
    { pattern: 'retry the', globs: ['src/**'], case_sensitive: false },
    { pattern: 'FIXME', globs: ['**/*.md', '*.py'] },
  ] satisfies GrepRequest[]) {
    const want = await oracle(req, spec);
    assert.deepEqual(await grepFolders(req, [spec], walk), want, JSON.stringify(req));
    assert.deepEqual(await grepFolders(req, [spec], walk, onePool), want, JSON.stringify(req));
  }
  const capped = await grepFolders({ pattern: 'retry the', max_matches: 7 }, [spec], walk);
  assert.equal(capped.truncated, true);
  assert.equal(capped.matches.length, 7);
});

test('a worker that stops mid-grep costs speed, not results: its batches are sent again to new workers', async () => {
  const spec = { path: join(root, 'mixed') };
  const req: GrepRequest = { pattern: 'retry the', max_matches: 5000 };
  const want = await oracle(req, spec);
  const pool = new GrepPool(2);
  try {
    let done = false;
    const running = grepFolders(req, [spec], walk, pool).finally(() => (done = true));
    // A fresh pool's workers take far longer to start than a turn of the event loop: the batch is
    // still queued when they are stopped.
    while (pool.pending === 0 && !done) await new Promise((resolve) => setImmediate(resolve));
    assert.ok(pool.pending > 0, 'no batch reached the workers');
    pool.restart();
    assert.deepEqual(await running, want);
    // And the pool starts new workers for the next grep.
    assert.deepEqual(await grepFolders(req, [spec], walk, pool), want);
  } finally {
    pool.close();
  }
});

function rgVersion(): string | null {
  try {
    return execFileSync('rg', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
}

test(
  'grep counts the same matching lines per file as ripgrep',
  { skip: rgVersion() === null && 'ripgrep (rg) is not installed' },
  async () => {
    const dir = join(root, 'portable');
    const spec = { path: dir };
    // Patterns both dialects read alike on this text (no \b or case folding beyond ASCII, no `.` over
    // astral characters); empty lines count alike: no phantom one after a final newline or in an empty file.
    const cases: { pattern: string; regex: boolean; ci: boolean }[] = [
      ...['retry the', 'TODO: ', 'FIXME', 'café', 'the', '[link](../', 'a\tb'].map((pattern) => ({
        pattern,
        regex: false,
        ci: false,
      })),
      ...['retry the', 'fixme', 'Limit='].map((pattern) => ({ pattern, regex: false, ci: true })),
      ...[
        'func Flush[A-Za-z]+[0-9]\\(',
        '(TODO|FIXME): [A-Z]',
        '^## Rotate the',
        'the$',
        'the\\r$',
        '^T',
        '^$',
        '^\\s*$',
        'colou?r',
        'caf.',
        'limit=49[0-9]\\)',
        'z{400}',
      ].map((pattern) => ({ pattern, regex: true, ci: false })),
      ...['^retry', 'todo: [a-z]'].map((pattern) => ({ pattern, regex: true, ci: true })),
    ];
    let total = 0;
    for (const c of cases) {
      const args = [
        '--count',
        '--with-filename',
        '--color',
        'never',
        c.ci ? '--ignore-case' : '--case-sensitive',
        ...(c.regex ? [] : ['--fixed-strings']),
        '-e',
        c.pattern,
        dir,
      ];
      const r = spawnSync('rg', args, { encoding: 'utf8' });
      assert.ok(r.status === 0 || r.status === 1, r.stderr);
      const want = new Map(
        r.stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => {
            const at = l.lastIndexOf(':');
            return [l.slice(0, at), Number(l.slice(at + 1))] as const;
          }),
      );
      const got = new Map<string, number>();
      for (const m of (
        await grepFolders(
          { pattern: c.pattern, regex: c.regex, case_sensitive: !c.ci, max_matches: 5000 },
          [spec],
          walk,
        )
      ).matches)
        got.set(m.path, (got.get(m.path) ?? 0) + 1);
      assert.deepEqual(new Map([...got].sort()), new Map([...want].sort()), JSON.stringify(c));
      total += [...want.values()].reduce((s, n) => s + n, 0);
    }
    assert.ok(total > 500, `only ${total} matches`);
  },
);
