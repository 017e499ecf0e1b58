import watcher, { type AsyncSubscription } from '@parcel/watcher';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Tells when every file event that happened before now has reached us. A sentinel file is written
 * into a folder of our own, watched by the same native backend as the person's folders; on Linux
 * that is one inotify queue, read in order, and one debounce pass that hands every watcher its
 * events. So once the sentinel's event has arrived, and a second one after it (the first pass may
 * still be handing out the others' events), every earlier write in any watched folder has been
 * delivered. This replaces a guessed grace period: waiting is exactly as long as delivery takes.
 */
export class WatchBarrier {
  private sub: AsyncSubscription | null = null;
  private waiters = new Map<string, (seen: boolean) => void>();
  private next = 0;

  constructor(private readonly dir: string) {}

  private async start(): Promise<boolean> {
    if (this.sub) return true;
    try {
      await rm(this.dir, { recursive: true, force: true });
      await mkdir(this.dir, { recursive: true });
      this.sub = await watcher.subscribe(this.dir, (err, events) => {
        if (err) return;
        for (const e of events) {
          if (e.type === 'delete') continue;
          const name = e.path.slice(this.dir.length + 1);
          this.waiters.get(name)?.(true);
        }
      });
      return true;
    } catch {
      return false;
    }
  }

  /** One sentinel round trip; false when it cannot be done (no space for the file, no watcher). */
  private async roundTrip(deadline: number): Promise<boolean> {
    const name = `b${process.pid}-${this.next++}`;
    const seen = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()));
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(name);
        resolve(ok);
      };
      this.waiters.set(name, done);
    });
    try {
      await writeFile(join(this.dir, name), '');
    } catch {
      this.waiters.get(name)?.(false);
      return false;
    }
    const ok = await seen;
    await rm(join(this.dir, name), { force: true });
    return ok;
  }

  /** Resolves true once earlier events are all delivered, false if that could not be shown in time. */
  async pass(deadline: number): Promise<boolean> {
    if (!(await this.start())) return false;
    const ok = (await this.roundTrip(deadline)) && (await this.roundTrip(deadline));
    // Callbacks queued beside the last sentinel's run before this.
    await new Promise((r) => setImmediate(r));
    return ok;
  }

  async close(): Promise<void> {
    for (const done of [...this.waiters.values()]) done(false);
    await this.sub?.unsubscribe().catch(() => undefined);
    this.sub = null;
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
