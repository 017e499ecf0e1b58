import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { IndexStore } from '../index/store.js';
import type { SourceFile } from '../types.js';
import { fsPath } from '../kernel/path-bytes.js';

/** 72 bits of a path's SHA-1: two paths of one folder collide with odds near n²/2⁷³ (1e-11 at a million files). */
function digest(path: string): string {
  return createHash('sha1').update(path).digest('base64').slice(0, 12);
}

/**
 * What a scan needs of the stored rows, read once as a stream: per path digest, the size and mtime
 * the file had when indexed and whether it was indexed without error, plus whether the walk has seen
 * it. About 90 bytes a file instead of whole rows, and one pass over the table instead of a lookup
 * per batch (a lookup scans the table: ~0.3 s per 2000 paths at 200k rows, measured). A digest
 * collision could only keep a deleted file's rows or re-read an unchanged file, never lose anything.
 */
export class StoredStats {
  private readonly at = new Map<string, number>();
  private size = new Float64Array(1024);
  private mtime = new Float64Array(1024);
  private ctime = new Float64Array(1024);
  private ino = new Float64Array(1024);
  /** Bit 1: indexed without error. Bit 2: seen by this walk. */
  private flags = new Uint8Array(1024);

  static async load(store: IndexStore, folder: string): Promise<StoredStats> {
    const stats = new StoredStats();
    for await (const rows of store.fileStats(folder)) {
      for (const r of rows) stats.put(r.path, r.size, r.mtime, r.ctime, r.ino, r.ok);
    }
    return stats;
  }

  private put(path: string, size: number, mtime: number, ctime: number, ino: number, ok: boolean): void {
    const i = this.at.size;
    if (i === this.size.length) {
      const grow = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.size = grow(this.size, (n) => new Float64Array(n));
      this.mtime = grow(this.mtime, (n) => new Float64Array(n));
      this.ctime = grow(this.ctime, (n) => new Float64Array(n));
      this.ino = grow(this.ino, (n) => new Float64Array(n));
      this.flags = grow(this.flags, (n) => new Uint8Array(n));
    }
    this.at.set(digest(path), i);
    this.size[i] = size;
    this.mtime[i] = mtime;
    this.ctime[i] = ctime;
    this.ino[i] = ino;
    this.flags[i] = ok ? 1 : 0;
  }

  /**
   * Marks a walked path seen; true when the index holds it unchanged: same size, mtime, change time
   * and inode (a rewrite that restores size and mtime, `cp -p` or `touch -r`, still moves the change
   * time or the inode, so it is hashed again). A file that failed to parse counts as unchanged too
   * while all four hold: a known-bad file is not parsed again until it changes. Rows from before
   * change times were kept (0) are hashed once, then recorded.
   */
  see(path: string, file?: SourceFile): { known: boolean; unchanged: boolean } {
    const i = this.at.get(digest(path));
    if (i === undefined) return { known: false, unchanged: false };
    this.flags[i] |= 2;
    if (file === undefined) return { known: true, unchanged: false };
    const sameStat =
      this.size[i] === file.size &&
      this.mtime[i] === file.mtimeMs &&
      this.ctime[i] === (file.ctimeMs ?? 0) &&
      this.ino[i] === (file.ino ?? 0);
    const known = this.ctime[i] !== 0;
    return { known: true, unchanged: sameStat && known && ((this.flags[i] & 1) === 1 || this.mtime[i] > 0) };
  }

  /** Stored before the walk and not seen by it: deleted, or ignored now. Rows written since are not known here, and stay. */
  gone(path: string): boolean {
    const i = this.at.get(digest(path));
    return i !== undefined && (this.flags[i] & 2) === 0;
  }
}

/**
 * Files whose size or mtime moved since they were listed: they changed while (or after) being read,
 * so what was stored for them may be an older version than the disk holds, or a torn read.
 */
export async function movedSince(files: SourceFile[]): Promise<SourceFile[]> {
  const moved: SourceFile[] = [];
  for (const f of files) {
    const st = await stat(fsPath(f.path)).catch(() => null);
    // Gone or no longer a file: the next walk or watcher event settles it, not a re-read.
    if (!st?.isFile()) continue;
    if (st.size !== f.size || st.mtimeMs !== f.mtimeMs) moved.push({ ...f, size: st.size, mtimeMs: st.mtimeMs });
  }
  return moved;
}
