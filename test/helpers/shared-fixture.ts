/**
 * A fixture built once per test run and copied per suite. Building one means indexing with the
 * real built-in model (converting it, starting the parse and embedding workers, embedding every
 * chunk): seconds per suite that did it for itself. The first suite of a run that asks for a
 * fixture builds it under CAIRN_TEST_RUN_DIR (set by scripts/run-tests.mjs; others wait on a
 * lock), and every suite gets its own copy to change as it likes.
 *
 * A copy lives at another path, and an index records absolute paths (folder and file columns,
 * config.json, symlink targets), so the copy rewrites every occurrence of the build's root to its
 * own, through LanceDB itself, then checks that none is left in any text column of any table:
 * a new path column is rewritten too, and a missed one fails here rather than in a suite.
 * Run without the runner (`node --test file`), a process builds its own fixture once.
 */
import { existsSync, rmSync } from 'node:fs';
import {
  cp,
  link,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rename,
  rm,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { DataType } from 'apache-arrow';

const META = 'fixture-meta.json';

interface Meta {
  /** The absolute root the fixture was built at (paths inside it start with this). */
  root: string;
}

const inProcess = new Map<string, Promise<string>>();
let privateRunDir: string | null = null;

async function runDir(): Promise<string> {
  if (process.env.CAIRN_TEST_RUN_DIR) return process.env.CAIRN_TEST_RUN_DIR;
  if (!privateRunDir) {
    privateRunDir = await mkdtemp(join(tmpdir(), 'cairn-test-run-'));
    const dir = privateRunDir;
    // Synchronous on exit: the folder holds only this process's prebuilt fixtures.
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return privateRunDir;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Builds `name` once per run (across processes) with `build(root)`; returns the built folder. */
async function prebuilt(name: string, build: (root: string) => Promise<void>): Promise<string> {
  const dir = await runDir();
  const done = join(dir, name);
  if (existsSync(join(done, META))) return done;
  const lock = join(dir, `${name}.lock`);
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (existsSync(join(done, META))) return done;
      // A builder that died (a killed test process) leaves its lock behind: take it over.
      const pid = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => ''));
      if (pid > 0 && !alive(pid)) await rm(lock, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    if (existsSync(join(done, META))) return done;
    const building = join(dir, `${name}.building-${process.pid}`);
    await rm(building, { recursive: true, force: true });
    await mkdir(building, { recursive: true });
    await build(building);
    await writeFile(join(building, META), JSON.stringify({ root: building } satisfies Meta));
    await rename(building, done);
    return done;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Every text column of every table in the LanceDB folder `indexDir`: `from` replaced by `to`. */
async function rewriteIndex(indexDir: string, from: string, to: string): Promise<void> {
  const db = await lancedb.connect(indexDir);
  try {
    for (const name of await db.tableNames()) {
      const table = await db.openTable(name);
      const columns = (await table.schema()).fields.filter((f) => DataType.isUtf8(f.type)).map((f) => f.name);
      let changed = false;
      for (const col of columns) {
        const where = `strpos(${col}, ${sqlString(from)}) > 0`;
        if ((await table.countRows(where)) === 0) continue;
        await table.update({ where, valuesSql: { [col]: `replace(${col}, ${sqlString(from)}, ${sqlString(to)})` } });
        changed = true;
      }
      // Rewritten rows are new rows: fold them into the full-text and key indexes, as a write does.
      if (changed) await table.optimize({ cleanupOlderThan: new Date() });
      for (const col of columns) {
        const left = await table.countRows(`strpos(${col}, ${sqlString(from)}) > 0`);
        if (left > 0) throw new Error(`fixture copy: ${left} rows of ${name}.${col} still name ${from}`);
      }
      table.close();
    }
  } finally {
    db.close();
  }
}

/**
 * Copies `src` (a fixture built at `from`) to `dest`, rewriting `from` to `dest` in LanceDB tables
 * (folders named `index` holding `*.lance`), JSON files and symlink targets. Model folders are
 * hard-linked: they are large, never written in place, and the same for every copy.
 */
async function copyTree(src: string, dest: string, from: string): Promise<void> {
  await cp(src, dest, {
    recursive: true,
    preserveTimestamps: true,
    verbatimSymlinks: true,
    filter: (s) => !relative(src, s).split('/').includes('models'),
  });
  async function walk(rel: string): Promise<void> {
    for (const entry of await readdir(join(src, rel), { withFileTypes: true })) {
      const r = join(rel, entry.name);
      const out = join(dest, r);
      if (entry.name === 'models' && entry.isDirectory()) await linkTree(join(src, r), out);
      else if (entry.isSymbolicLink()) {
        const target = await readlink(out);
        if (target.startsWith(from)) {
          await unlink(out);
          await symlink(dest + target.slice(from.length), out);
        }
      } else if (entry.isDirectory()) {
        const names = await readdir(join(src, r));
        if (names.some((n) => n.endsWith('.lance'))) await rewriteIndex(out, from, dest);
        else await walk(r);
      } else if (entry.isFile() && entry.name.endsWith('.json') && entry.name !== META) {
        const text = await readFile(out, 'utf8');
        if (text.includes(from)) await writeFile(out, text.split(from).join(dest));
      }
    }
  }
  await walk('');
  await rm(join(dest, META), { force: true });
}

async function linkTree(src: string, dest: string): Promise<void> {
  await mkdir(dest, { recursive: true });
  for (const entry of await readdir(src, { withFileTypes: true })) {
    if (entry.isDirectory()) await linkTree(join(src, entry.name), join(dest, entry.name));
    else if (entry.isFile()) await link(join(src, entry.name), join(dest, entry.name));
  }
}

/**
 * A private copy of the fixture `name` in a new temporary folder (its absolute path returned; the
 * caller removes it). `build(root)` makes the fixture under `root` once per run; it must leave no
 * process or open engine behind.
 */
export async function copyOfFixture(name: string, build: (root: string) => Promise<void>): Promise<string> {
  let built = inProcess.get(name);
  if (!built) {
    built = prebuilt(name, build);
    inProcess.set(name, built);
  }
  const src = await built;
  const meta = JSON.parse(await readFile(join(src, META), 'utf8')) as Meta;
  const dest = await mkdtemp(join(tmpdir(), `cairn-${name}-`));
  await rm(dest, { recursive: true });
  await copyTree(src, dest, meta.root);
  return dest;
}
