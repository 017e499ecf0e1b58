/**
 * What must be resident for the engine to search (or index) a data folder, from the folder itself:
 * the model's weights (its .onnx file), the index structures (files under _indices) and the live
 * vectors. The memory benchmarks (concurrency, indexing-rss) hold their peak RSS against it.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { resolveModel } from '../../main/engine/embed/registry.js';
import { maintain, pruneEmptyIndexFolders } from '../../main/engine/index/maintenance.js';

const MB = 2 ** 20;

function filesUnder(dir: string): { path: string; bytes: number }[] {
  const out: { path: string; bytes: number }[] = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push({ path: p, bytes: statSync(p).size });
  }
  return out;
}

/** The parts that must be resident, from the data folder: the model's weights and the index structures. */
export function residentParts(home: string): {
  modelMb: number;
  modelFile: string;
  indexMb: number;
  /** The live vectors a search scans: rows x dimensions x 4 bytes. */
  vectorsMb: (rows: number) => number;
} {
  const onnx = filesUnder(join(home, 'models'))
    .filter((f) => f.path.endsWith('.onnx'))
    .sort((a, b) => b.bytes - a.bytes);
  const indices = filesUnder(join(home, 'index')).filter((f) => f.path.includes('/_indices/'));
  return {
    modelMb: (onnx[0]?.bytes ?? 0) / MB,
    modelFile: onnx[0]?.path.slice(home.length + 1) ?? 'none',
    indexMb: indices.reduce((s, f) => s + f.bytes, 0) / MB,
    vectorsMb: (rows) => (rows * modelDimensions(home) * 4) / MB,
  };
}

/**
 * Deletes the older versions of every table of a kept fixture, and their index files. `_indices`
 * holds those until an engine's maintenance prunes them a minute after its pass (a process that
 * exits first leaves them): the floor of the same 100k fixture counted 156 MB of index files one
 * day and 86 MB the next (issue 17). Run before `residentParts` on a data folder no engine has open.
 */
export async function pruneOldVersions(home: string): Promise<void> {
  const dir = join(home, 'index');
  const db = await lancedb.connect(dir);
  try {
    const names = await db.tableNames();
    const tables = await Promise.all(names.map((n) => db.openTable(n)));
    await maintain(tables, null, { keepVersionsMs: 0, vectorIndexThreshold: Infinity });
    for (const t of tables) t.close();
    await pruneEmptyIndexFolders(dir, names);
  } finally {
    db.close();
  }
}

function modelDimensions(home: string): number {
  let id = 'cairn/use-lite';
  try {
    const cfg = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as { embedding?: { model?: string } };
    id = cfg.embedding?.model ?? id;
  } catch {
    // No settings file: the default model.
  }
  return resolveModel(id).dimensions ?? 0;
}
