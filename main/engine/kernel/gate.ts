/**
 * At most `limit` holders at once; the rest wait in arrival order. For searches: each one in flight
 * holds its LanceDB scans' buffers and threads, so 32 clients searching at once on two cores cost
 * 32 sets of them (RSS 111 -> 490 MB for 32 concurrent vector queries on a 2k-vector table, 246 MB
 * for 4, which also answered more of them: measured with bench/benchmarks/concurrency.ts's load).
 */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  /**
   * From inside `run`: steps out for a wait that holds nothing (freshness, a model loading), so it
   * does not keep others out, and waits its turn to come back in.
   */
  async outside<T>(wait: () => Promise<T>): Promise<T> {
    this.leave();
    try {
      return await wait();
    } finally {
      await this.enter();
    }
  }

  /** Holders now and callers waiting (for status and tests). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  private enter(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private leave(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next in line: `active` stays, nobody can overtake.
    if (next) next();
    else this.active--;
  }
}
