/**
 * Limits on checking client credentials, so guessing cannot slow the API down:
 * - per client id, at most `failures` failed checks per window; further requests for that
 *   id are refused without being checked until the window ends;
 * - at most `concurrent` scrypt checks run at once (on libuv's thread pool, which file reads
 *   and zlib share), with at most `queued` waiting; beyond that requests are refused.
 * Refusals carry the seconds after which trying again can succeed.
 */
export interface AttemptLimitOptions {
  failures: number;
  windowMs: number;
  concurrent: number;
  queued: number;
  /** Client ids remembered at once (failures of unknown ids included). */
  maxTracked: number;
}

export const DEFAULT_ATTEMPT_LIMITS: AttemptLimitOptions = {
  failures: 10,
  windowMs: 60_000,
  concurrent: 1,
  queued: 32,
  maxTracked: 10_000,
};

export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number; reason: 'client' | 'busy' };

export class AttemptLimiter {
  private readonly failuresById = new Map<string, { count: number; resetAt: number }>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: AttemptLimitOptions = DEFAULT_ATTEMPT_LIMITS) {}

  /** May credentials of this client id be checked now? */
  admit(clientId: string, now = Date.now()): Admission {
    const entry = this.failuresById.get(clientId);
    if (entry && entry.resetAt <= now) this.failuresById.delete(clientId);
    else if (entry && entry.count >= this.options.failures) {
      return { ok: false, reason: 'client', retryAfterSeconds: Math.ceil((entry.resetAt - now) / 1000) };
    }
    if (this.running >= this.options.concurrent && this.waiting.length >= this.options.queued) {
      return { ok: false, reason: 'busy', retryAfterSeconds: 1 };
    }
    return { ok: true };
  }

  /** Runs one check in a free slot (call after admit() said ok). */
  async check<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.concurrent) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes to the next waiter
      else this.running--;
    }
  }

  failed(clientId: string, now = Date.now()): void {
    const entry = this.failuresById.get(clientId);
    if (entry && entry.resetAt > now) {
      entry.count++;
      return;
    }
    if (this.failuresById.size >= this.options.maxTracked) this.forgetExpired(now);
    // Still full (a flood of made-up ids): forget the oldest, whose window ends first.
    if (this.failuresById.size >= this.options.maxTracked)
      this.failuresById.delete(this.failuresById.keys().next().value!);
    this.failuresById.set(clientId, { count: 1, resetAt: now + this.options.windowMs });
  }

  succeeded(clientId: string): void {
    this.failuresById.delete(clientId);
  }

  private forgetExpired(now: number): void {
    for (const [id, entry] of this.failuresById) if (entry.resetAt <= now) this.failuresById.delete(id);
  }
}
