// Property test: random sequences of add / remove / edit / rename / copy / search on a real folder,
// each applied with an incremental update, against a model of which files hold which token.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Engine } from '../../main/engine/engine.js';
import { indexNow, tempDir, tempEngine } from '../helpers/engine.js';

type Op =
  | { op: 'add'; dir: number; ext: number }
  | { op: 'remove'; pick: number }
  | { op: 'edit'; pick: number }
  | { op: 'rename'; pick: number; dir: number }
  | { op: 'copy'; pick: number; dir: number }
  | { op: 'search'; pick: number };

const DIRS = ['', 'a', 'a/b', 'c'];
const EXTS = ['md', 'ts', 'py', 'txt'];

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), dir: fc.nat(DIRS.length - 1), ext: fc.nat(EXTS.length - 1) }),
  fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('edit' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('rename' as const), pick: fc.nat(), dir: fc.nat(DIRS.length - 1) }),
  fc.record({ op: fc.constant('copy' as const), pick: fc.nat(), dir: fc.nat(DIRS.length - 1) }),
  fc.record({ op: fc.constant('search' as const), pick: fc.nat() }),
);

function body(rel: string, tok: string): string {
  if (rel.endsWith('.md')) return `# Entry\n\nA short note that records ${tok} for later.\n`;
  if (rel.endsWith('.ts')) return `export const marker = '${tok}';\n`;
  if (rel.endsWith('.py')) return `MARKER = "${tok}"\n`;
  return `plain text with ${tok} inside\n`;
}

/** The model: which token each file holds. A token may be in several files (copies). */
class Model {
  files = new Map<string, string>();
  tokens = new Set<string>();
  private n = 0;

  constructor(
    readonly root: string,
    readonly run: number,
  ) {}

  newToken(): string {
    const t = `pq${this.run}x${this.n++}w`;
    this.tokens.add(t);
    return t;
  }

  newRel(dir: number, ext: string): string {
    const d = DIRS[dir];
    return `${d ? `${d}/` : ''}n${this.n++}.${ext}`;
  }

  pick(i: number): string | undefined {
    const rels = [...this.files.keys()].sort();
    return rels.length ? rels[i % rels.length] : undefined;
  }

  async put(rel: string, tok: string): Promise<void> {
    const abs = join(this.root, rel);
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, body(rel, tok));
    this.files.set(rel, tok);
  }

  holders(tok: string): string[] {
    return [...this.files]
      .filter(([, t]) => t === tok)
      .map(([rel]) => join(this.root, rel))
      .sort();
  }

  /** Applies one operation to the disk and the model; returns a token to search for, if any. */
  async apply(o: Op): Promise<void> {
    if (o.op === 'add') return this.put(this.newRel(o.dir, EXTS[o.ext]), this.newToken());
    const rel = this.pick(o.pick);
    if (!rel) return;
    if (o.op === 'remove') {
      await rm(join(this.root, rel));
      this.files.delete(rel);
    } else if (o.op === 'edit') await this.put(rel, this.newToken());
    else if (o.op === 'rename') {
      const to = this.newRel(o.dir, rel.split('.').pop()!);
      await mkdir(dirname(join(this.root, to)), { recursive: true });
      await rename(join(this.root, rel), join(this.root, to));
      this.files.set(to, this.files.get(rel)!);
      this.files.delete(rel);
    } else if (o.op === 'copy') await this.put(this.newRel(o.dir, rel.split('.').pop()!), this.files.get(rel)!);
  }
}

let engine: Engine;
let cleanupEngine: () => Promise<void>;
let root: { dir: string; cleanup: () => Promise<void> };

before(async () => {
  const t = await tempEngine();
  engine = t.engine;
  cleanupEngine = t.cleanup;
  root = await tempDir('property');
});

after(async () => {
  await cleanupEngine?.();
  await root?.cleanup();
});

async function holdersInIndex(tok: string): Promise<string[]> {
  const res = await engine.search({ query: tok, mode: 'sparse', top_k: 50 });
  return [...new Set(res.hits.map((h) => h.path))].sort();
}

let runs = 0;

test(
  'sparse search agrees with a model of the folder after every incremental update',
  { timeout: 900_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 6 }), async (ops) => {
        const run = runs++;
        const folder = join(root.dir, `run${run}`);
        await mkdir(folder);
        const model = new Model(folder, run);
        for (let i = 0; i < 3; i++) await model.apply({ op: 'add', dir: i, ext: i });
        await engine.addFolder({ path: folder });
        try {
          await indexNow(engine, folder, 'create');
          for (const [step, o] of ops.entries()) {
            await model.apply(o);
            await indexNow(engine, folder, 'update');
            const where = `step ${step} (${JSON.stringify(o)}) of ${JSON.stringify(ops)}`;
            const toCheck = o.op === 'search' ? [[...model.tokens][o.pick % model.tokens.size]] : [...model.tokens];
            for (const tok of toCheck)
              assert.deepEqual(await holdersInIndex(tok), model.holders(tok), `${tok} after ${where}`);
            const [st] = (await engine.folders()).filter((f) => f.path === folder);
            assert.equal(st.files, model.files.size, `file count after ${where}`);
            assert.equal(st.state, 'fresh', where);
          }
        } finally {
          await engine.removeFolder(folder);
          await rm(folder, { recursive: true, force: true });
        }
      }),
      { numRuns: 18, seed: Number(process.env.CAIRN_PROPERTY_SEED ?? 4242), endOnFailure: true },
    );
  },
);
