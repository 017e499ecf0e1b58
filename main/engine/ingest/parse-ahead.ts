import type { SourceFile } from '../types.js';
import type { FileRows } from './rows.js';

export interface AheadLimits {
  /** Files parsed (or being parsed) beyond the one the writer waits for. */
  files: number;
  /** Their bytes on disk: a run of large files holds fewer. */
  bytes: number;
}

type Parsed = FileRows | 'unchanged';

/**
 * Files parsed ahead of the writer, taken in order: while the main thread commits one batch, the
 * workers parse the next. The window is bounded (files and bytes) and grows only as the writer
 * takes files, so a paused or cancelled job stops feeding the workers at once.
 */
export class ParseAhead {
  private readonly started: Promise<Parsed>[] = [];
  private taken = 0;
  private heldBytes = 0;

  constructor(
    private readonly files: readonly SourceFile[],
    private readonly start: (src: SourceFile) => Promise<Parsed>,
    private readonly limits: AheadLimits,
  ) {}

  /** The next file's rows, in the order of `files`. */
  async take(): Promise<Parsed> {
    this.fill();
    const i = this.taken++;
    const p = this.started[i];
    delete this.started[i];
    this.heldBytes -= this.files[i].size;
    return p;
  }

  private fill(): void {
    const { files, bytes } = this.limits;
    while (this.started.length < this.files.length) {
      const i = this.started.length;
      const ahead = i - this.taken;
      if (ahead > 0 && (ahead >= files || this.heldBytes + this.files[i].size > bytes)) break;
      const p = this.start(this.files[i]);
      // Results never taken (cancel, a failed write) must not surface as unhandled rejections.
      p.catch(() => undefined);
      this.started.push(p);
      this.heldBytes += this.files[i].size;
    }
  }
}
