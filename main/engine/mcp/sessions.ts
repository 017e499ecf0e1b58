/**
 * The bounded table of stateful (2025-era) sessions. A new session is never refused for want of
 * room: the least valuable one goes instead, so a flood of `initialize` calls (which cost a caller
 * nothing, with or without a key) can only push out other idle sessions, never lock a client out.
 * "Least valuable" is: a session that never got past its `initialize` (what a flood leaves
 * behind) before one that was used, then the longest unused. Each client (remote address plus
 * credentials) has its own bound, below the global one, so one client fills only its own share.
 */

/** Sessions in all; past this the least valuable one is ended to make room. */
export const MAX_SESSIONS = 256;
/** Sessions per client (remote address + Authorization); past this that client's own least valuable one goes. */
export const MAX_SESSIONS_PER_CLIENT = 32;
/** A session unused this long is ended (clients that vanish never DELETE). */
export const SESSION_IDLE_MS = 10 * 60 * 1000;

export interface SessionEntry {
  /** Who opened it: remote address and a digest of the credentials it came with. */
  client: string;
  lastSeen: number;
  /** Requests it served, `initialize` included: 1 means it was never used after its handshake. */
  uses: number;
  close(): Promise<void>;
}

export interface SessionLimits {
  max: number;
  perClient: number;
  idleMs: number;
}

const DEFAULT_LIMITS: SessionLimits = {
  max: MAX_SESSIONS,
  perClient: MAX_SESSIONS_PER_CLIENT,
  idleMs: SESSION_IDLE_MS,
};

/** Lower is evicted first: never used after `initialize`, then the longest unused. */
function evictionOrder(a: SessionEntry, b: SessionEntry): number {
  const used = Number(a.uses > 1) - Number(b.uses > 1);
  return used !== 0 ? used : a.lastSeen - b.lastSeen;
}

export class SessionTable<T extends SessionEntry> {
  private readonly entries = new Map<string, T>();

  constructor(
    private readonly limits: SessionLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The session, marked as used now; undefined when unknown (ended, evicted or never issued). */
  touch(id: string): T | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (this.now() - entry.lastSeen > this.limits.idleMs) {
      this.end(id);
      return undefined;
    }
    entry.lastSeen = this.now();
    entry.uses++;
    return entry;
  }

  add(id: string, entry: T): void {
    this.entries.set(id, entry);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  /**
   * Makes room for one more session of `client`: ends idle sessions, then that client's least
   * valuable one while it is at its bound, then the global least valuable one while the table is
   * full. Returns how many were ended.
   */
  makeRoom(client: string): number {
    let ended = this.endIdle();
    const own = [...this.entries].filter(([, e]) => e.client === client);
    while (own.length >= this.limits.perClient) {
      own.sort(([, a], [, b]) => evictionOrder(a, b));
      const [id] = own.shift()!;
      this.end(id);
      ended++;
    }
    while (this.entries.size >= this.limits.max) {
      const [id] = [...this.entries].sort(([, a], [, b]) => evictionOrder(a, b))[0];
      this.end(id);
      ended++;
    }
    return ended;
  }

  /** Ends every session unused for longer than the idle timeout. */
  endIdle(): number {
    const cutoff = this.now() - this.limits.idleMs;
    let ended = 0;
    for (const [id, e] of this.entries) {
      if (e.lastSeen < cutoff) {
        this.end(id);
        ended++;
      }
    }
    return ended;
  }

  /** Removes every session and closes them. */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.allSettled(all.map((e) => e.close()));
  }

  private end(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    void entry.close().catch(() => undefined);
  }
}
