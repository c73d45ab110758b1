// Request rates as sliding windows of the times of the requests let through: per API key (SPEC
// "Limits": 300 a minute) and per client address on the public routes (DESIGN section 11). A
// refused request is not counted, so `Retry-After` is true: a client that waits that long gets
// through. Held in memory: one process serves the API. A public route declares its rate on
// itself (`rateLimit` in server/route), and the request pipeline counts it before the handler.
import { RateLimited } from "../errors";

export type RateDecision = { allowed: boolean; limit: number; remaining: number; resetSeconds: number; retryAfterSeconds: number };

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private swept = 0;

  constructor(
    readonly limit: number,
    readonly windowMs = 60_000,
  ) {}

  hit(key: string, now = Date.now()): RateDecision {
    // Once a window, the keys whose window has passed are forgotten: memory stays bounded by
    // the callers of the last minute, however many addresses come and go.
    if (now - this.swept >= this.windowMs) {
      this.sweep(now);
      this.swept = now;
    }
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

  /** Keys with a window held (memory in use). */
  get size(): number {
    return this.hits.size;
  }

  /** Forgets windows that have fully passed (called now and then to bound memory). */
  sweep(now = Date.now()): void {
    for (const [key, times] of this.hits) if (!times.length || times[times.length - 1] <= now - this.windowMs) this.hits.delete(key);
  }
}

/**
 * A rate per client address: `perMinute` requests a minute, counted over every route that
 * declares the same `scope` (all /c/* card routes share one).
 */
export type AddressRate = { scope: string; perMinute: number };

// Per owner (the app's database: separate apps, as in tests, do not share counts), one limiter
// per scope of public routes.
const byAddress = new WeakMap<object, Map<string, SlidingWindowLimiter>>();

/**
 * Counts a request of client address `ip` (null: unknown, all such share one count) against
 * `perMinute` requests a minute in `scope`; 429 RATE_LIMITED with Retry-After beyond it.
 */
export function limitAddress(owner: object, scope: string, perMinute: number, ip: string | null, now = Date.now()): void {
  let scopes = byAddress.get(owner);
  if (!scopes) {
    scopes = new Map();
    byAddress.set(owner, scopes);
  }
  let limiter = scopes.get(scope);
  if (!limiter) {
    limiter = new SlidingWindowLimiter(perMinute);
    scopes.set(scope, limiter);
  }
  const decision = limiter.hit(`ip:${ip ?? "unknown"}`, now);
  if (!decision.allowed) throw new RateLimited(decision.retryAfterSeconds);
}
