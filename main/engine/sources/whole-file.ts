/**
 * A whole file's bytes, read from its descriptor in pieces and bounded by the size limit: a file
 * that grows past `cap` while it is read (its stat said less) is as good as too large. What
 * FolderAccess's two reads (thread pool and synchronous) share.
 */
export class WholeFile {
  private readonly chunks: Buffer[] = [];
  private got = 0;

  constructor(
    private readonly size: number,
    private readonly cap: number,
    private readonly tooLarge: () => Error,
  ) {}

  /** The buffer the next read fills. */
  next(): Buffer {
    return Buffer.allocUnsafe(Math.min(this.cap + 1 - this.got, Math.max(this.size - this.got, 64 * 1024)) || 1);
  }

  /** Takes the `n` bytes a read put in `buf`; false at the end of the file. */
  took(buf: Buffer, n: number): boolean {
    if (n === 0) return false;
    this.chunks.push(buf.subarray(0, n));
    this.got += n;
    if (this.got > this.cap) throw this.tooLarge();
    return true;
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.got);
  }
}
