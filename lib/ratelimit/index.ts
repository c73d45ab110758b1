// Request rate per API key (SPEC "Limits": 300 a minute), as a sliding window of the times of
// the requests it let through. A refused request is not counted, so `Retry-After` is true: a
// client that waits that long gets through. Held in memory: one process serves the API.

export type RateDecision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number; retryAfterSeconds: number };

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs = 60_000,
  ) {}

  hit(key: string, now = Date.now()): RateDecision {
    let times = this.hits.get(key);
    if (!times) {
      times = [];
      this.hits.set(key, times);
    }
    const floor = now - this.windowMs;
    let drop = 0;
    while (drop < times.length && times[drop] <= floor) drop++;
    if (drop) times.splice(0, drop);
    const allowed = times.length < this.limit;
    if (allowed) times.push(now);
    const oldest = times[0] ?? now;
    const resetSeconds = Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    return { allowed, limit: this.limit, remaining: Math.max(0, this.limit - times.length), resetSeconds, retryAfterSeconds: allowed ? 0 : resetSeconds };
  }

  /** Forgets windows that have fully passed (called now and then to bound memory). */
  sweep(now = Date.now()): void {
    for (const [key, times] of this.hits) if (!times.length || times[times.length - 1] <= now - this.windowMs) this.hits.delete(key);
  }
}
