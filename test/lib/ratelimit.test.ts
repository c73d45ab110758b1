// The sliding window: exact counts at the window's edges, with a controlled clock.
import { describe, expect, it } from "bun:test";
import { SlidingWindowLimiter } from "../../lib/ratelimit";

describe("SlidingWindowLimiter", () => {
  it("refuses past the limit and lets through again once the oldest request leaves the window", () => {
    const limiter = new SlidingWindowLimiter(3, 60_000);
    const t0 = 1_000_000;
    expect(limiter.hit("k", t0).allowed).toBe(true);
    expect(limiter.hit("k", t0 + 10_000).allowed).toBe(true);
    expect(limiter.hit("k", t0 + 20_000).remaining).toBe(0);
    const refused = limiter.hit("k", t0 + 30_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(30);
    expect(limiter.hit("k", t0 + 59_999).allowed).toBe(false);
    expect(limiter.hit("k", t0 + 60_000).allowed).toBe(true);
    expect(limiter.hit("other", t0 + 60_000).remaining).toBe(2);
  });
});
