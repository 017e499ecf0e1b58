/** Shared bits of the embedding tests: temp data folders, vector comparisons, the reference fixture. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempDataDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-embed-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

export function norm(a: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}

export interface ReferenceFixture {
  about: string;
  dimensions: number;
  sentences: { text: string; ids: number[]; embedding: number[] }[];
}

export function loadReference(): ReferenceFixture {
  return JSON.parse(
    readFileSync(new URL('../fixtures/embed/reference.json', import.meta.url), 'utf8'),
  ) as ReferenceFixture;
}
