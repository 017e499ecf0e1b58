/**
 * What must be resident for the engine to search (or index) a data folder, from the folder itself:
 * the model's weights (its .onnx file), the index structures (files under _indices) and the live
 * vectors. The memory benchmarks (concurrency, indexing-rss) hold their peak RSS against it.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveModel } from '../../main/engine/embed/registry.js';

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
