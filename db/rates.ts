// The request rates of lib/ratelimit as PostgreSQL counts them, where several server processes
// serve one database and must count together: per scope and key, one counter per slot of a
// sixtieth of the window (`rate_counts`), raised by one statement per request. The window is the
// slots wholly inside it counted whole, and the oldest slot, which the window is leaving,
// weighted by the part of it still inside (the sliding-window approximation of Cloudflare and
// others, with slots a sixtieth of the window: exact to within one slot's requests).
//
// The statement raises the current slot's counter only while the window holds fewer than the
// limit: the row lock of ON CONFLICT DO UPDATE makes that check and the raise one step for
// concurrent requests (on any process), and a refused request is not counted, so Retry-After is
// true. It runs on its own, without a transaction, and commits without waiting for the disk
// (synchronous_commit off for this statement only): a count lost in a crash lets a few more
// requests through in the next minute, and waiting for the disk would hold the counter's row lock
// for a disk sync, one request of a key after another.
import type { Db } from "./index";

/** Slots per window: a minute's window counts per second, an hour's per minute. */
const SLOTS = 60;

/** A rate counted: whether let through, and the window's count after it (weighted, may be fractional). */
export type SlotCount = { allowed: boolean; count: number; resetMs: number; retryAfterMs: number };

// $1 scope, $2 key, $3 the current slot's start, $4 now, $5 the window, $6 the slot's width, $7 the limit.
// Times are whole milliseconds: of the slot being left, the milliseconds after now - window are inside.
const HIT = `
WITH async AS (SELECT set_config('synchronous_commit', 'off', true)),
before AS (
  SELECT coalesce(sum(CASE WHEN at <= $4::bigint - $5::bigint THEN n * ($6::bigint - 1 - ($4::bigint - $5::bigint - at))::float8 / $6::bigint ELSE n END), 0) AS n,
    min(at) AS oldest
  FROM rate_counts WHERE scope = $1 AND key = $2 AND at > $4::bigint - $5::bigint - $6::bigint AND at < $3::bigint
)
INSERT INTO rate_counts (scope, key, at, n, gone_at)
SELECT $1, $2, $3::bigint, 1, $3::bigint + $5::bigint + $6::bigint FROM before, async WHERE before.n < $7::integer
ON CONFLICT (scope, key, at) DO UPDATE SET n = rate_counts.n + 1
WHERE rate_counts.n + (SELECT n FROM before) < $7::integer
RETURNING n, (SELECT n FROM before) AS before, (SELECT oldest FROM before) AS oldest`;

const SLOTS_HELD = "SELECT at, n FROM rate_counts WHERE scope = $1 AND key = $2 AND at > $3::bigint - $4::bigint - $5::bigint";

/** The part of the slot starting at `at` (width `slot`) inside the window ending at `now`. */
function weight(at: number, now: number, windowMs: number, slot: number): number {
  if (at > now - windowMs) return 1;
  return Math.max(0, slot - 1 - (now - windowMs - at)) / slot;
}

/**
 * Counts a request of `key` in `scope` against `limit` per `windowMs` at `now`, for every process
 * on the database together: let through and counted while the window holds fewer than `limit`,
 * else refused, uncounted, with the wait until the window holds fewer.
 */
export async function countInSlots(db: Db, scope: string, key: string, limit: number, windowMs: number, now: number): Promise<SlotCount> {
  const slot = Math.max(1, Math.floor(windowMs / SLOTS));
  const at = now - (now % slot);
  const [hit] = await db.query<{ n: number; before: number; oldest: number | null }>(HIT, [scope, key, at, now, windowMs, slot, limit], "rate.hit");
  if (hit) {
    const oldest = hit.oldest ?? at;
    return { allowed: true, count: hit.n + hit.before, resetMs: Math.max(0, oldest + windowMs - now), retryAfterMs: 0 };
  }
  // Refused: the earliest moment the window holds fewer than the limit, the count only falling as
  // the slots leave it (at the latest, when every slot held now has left).
  const held = await db.query<{ at: number; n: number }>(SLOTS_HELD, [scope, key, now, windowMs, slot], "rate.slots");
  const countAt = (t: number) => held.reduce((sum, s) => sum + s.n * weight(Number(s.at), t, windowMs, slot), 0);
  let [lo, hi] = [now, now + windowMs + slot];
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (countAt(mid) < limit) hi = mid;
    else lo = mid + 1;
  }
  return { allowed: false, count: countAt(now), resetMs: lo - now, retryAfterMs: lo - now };
}

/** Forgets the slots that have left their window by `now`: the requests they counted. */
export async function purgeSlots(db: Db, now: number): Promise<number> {
  const [gone] = await db.query<{ n: number | null }>(
    "WITH gone AS (DELETE FROM rate_counts WHERE gone_at <= $1::bigint RETURNING n) SELECT sum(n) AS n FROM gone",
    [now],
  );
  return Number(gone?.n ?? 0);
}
