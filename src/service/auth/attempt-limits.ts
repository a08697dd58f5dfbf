/**
 * Fair turns at checking client secrets, so guessing slows only the guesser:
 * - Only known, unrevoked client ids reach a check (clients.ts refuses the rest before any
 *   hashing): a flood of made-up ids costs no scrypt and takes no one's turn.
 * - One scrypt check at a time (on libuv's thread pool, which file reads and zlib share).
 *   Requests wait in a queue per key — the client id and where the request comes from (a web
 *   page's origin, or none) — and the queues take turns, so a guesser's queue never makes the
 *   owner wait for more than one of its checks. A key may have `perKey` requests waiting, all
 *   keys together `queued`; beyond that the request is refused (429, try again in a second).
 * - A failed check is answered after a delay that grows with the key's recent failures
 *   (`failureDelayMs` each, at most `maxDelayMs`), taken after the check's turn is given up:
 *   it slows that key's answers only. There is no lock-out: the owner's right secret works
 *   at once, however many wrong ones others sent.
 */
export interface AttemptLimitOptions {
  /** Failures are remembered this long. */
  windowMs: number;
  failureDelayMs: number;
  maxDelayMs: number;
  concurrent: number;
  /** Requests that may wait per key, and in all. */
  perKey: number;
  queued: number;
  /** Keys remembered at once (their failures). */
  maxTracked: number;
}

export const DEFAULT_ATTEMPT_LIMITS: AttemptLimitOptions = {
  windowMs: 60_000,
  failureDelayMs: 100,
  maxDelayMs: 2000,
  concurrent: 1,
  perKey: 4,
  queued: 32,
  maxTracked: 10_000,
};

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

export class AttemptLimiter {
  private readonly failuresByKey = new Map<string, { count: number; resetAt: number }>();
  private running = 0;
  /** Waiting requests per key, in the order keys take turns. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private waitingCount = 0;

  constructor(private readonly options: AttemptLimitOptions = DEFAULT_ATTEMPT_LIMITS) {}

  /** May a check for this key wait for its turn now? */
  admit(key: string): Admission {
    if (this.running < this.options.concurrent) return { ok: true };
    const mine = this.waiting.get(key)?.length ?? 0;
    if (mine >= this.options.perKey || this.waitingCount >= this.options.queued)
      return { ok: false, retryAfterSeconds: 1 };
    return { ok: true };
  }

  /** Runs one check in its key's turn (call after admit() said ok). */
  async check<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrent) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(key);
        if (queue) queue.push(resolve);
        else this.waiting.set(key, [resolve]);
        this.waitingCount++;
      });
    } else this.running++;
    try {
      return await work();
    } finally {
      this.passTurn();
    }
  }

  /** The slot passes to the first waiter of the key whose turn it is; that key goes to the back. */
  private passTurn(): void {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [key, queue] = next.value;
    const resolve = queue.shift()!;
    this.waiting.delete(key);
    if (queue.length > 0) this.waiting.set(key, queue);
    this.waitingCount--;
    resolve();
  }

  /** Records a failed check; returns how long to hold its answer back. */
  failed(key: string, now = Date.now()): number {
    let entry = this.failuresByKey.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.failuresByKey.size >= this.options.maxTracked) this.forgetExpired(now);
      // Still full: forget the oldest, whose window ends first.
      if (this.failuresByKey.size >= this.options.maxTracked)
        this.failuresByKey.delete(this.failuresByKey.keys().next().value!);
      entry = { count: 0, resetAt: now + this.options.windowMs };
      this.failuresByKey.set(key, entry);
    }
    entry.count++;
    return Math.min(this.options.maxDelayMs, entry.count * this.options.failureDelayMs);
  }

  succeeded(key: string): void {
    this.failuresByKey.delete(key);
  }

  private forgetExpired(now: number): void {
    for (const [key, entry] of this.failuresByKey) if (entry.resetAt <= now) this.failuresByKey.delete(key);
  }
}
