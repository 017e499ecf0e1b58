import { CairnError } from '../errors.js';
import { readContract } from './contract.js';
import type { IndexStore } from './store.js';

/**
 * A storage error is checked against the index itself: when a table fails its read check, the
 * error is that damage (typed `index_corrupt`, naming the table), remembered for status and
 * every later call, instead of LanceDB's raw I/O text passed on as a failed leg.
 */
export class DamageWatch {
  /** Damage found after open (a storage error on a search or a write). */
  current: CairnError | null = null;

  constructor(
    private readonly store: IndexStore,
    private readonly indexDir: string,
    private readonly onFound: (damage: CairnError) => void,
  ) {}

  /** The error to report for `err`: the damage when the index is damaged, else `err` itself. */
  async name(err: unknown): Promise<unknown> {
    if (this.current) return this.current;
    if (err instanceof CairnError && !['required_retrieval_leg_failed', 'internal'].includes(err.code)) return err;
    if (err instanceof Error && err.message === 'job cancelled') return err;
    return (await this.find()) ?? err;
  }

  /**
   * Background work on the index (a maintenance pass): skipped while damage is known, since the
   * index is about to be moved aside; damage it meets (compaction reads every fragment it
   * rewrites) is named and reported as a write's is, not lost in a hidden job's failure.
   */
  async background(work: () => Promise<void>): Promise<void> {
    if (this.current) return;
    try {
      await work();
    } catch (err) {
      throw await this.name(err);
    }
  }

  /** The damaged index was moved aside and a new one opened in its place (folders/repair.ts). */
  clear(): void {
    this.current = null;
  }

  /** Read-checks every table and the contract now; damage found is remembered, as `name` does. */
  async find(): Promise<CairnError | null> {
    if (this.current) return this.current;
    try {
      await this.store.verify();
      await readContract(this.indexDir);
    } catch (found) {
      if (found instanceof CairnError && found.code === 'index_corrupt') {
        this.current = found;
        this.onFound(found);
        return found;
      }
    }
    return null;
  }
}
