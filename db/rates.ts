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
//
// A key's requests that arrive at one process while its statement is out are counted together by
// the next one (countKeyRequest: a group commit of the count). Under load, a key's requests then
// take one statement and one turn of the counter's row lock per group instead of one each: that
// row is where every request of a key waits for the one before it, on any process. A group is let
// through whole only while the window holds room for all of it; otherwise its requests are counted
// one by one, as they always were, so the count stays exact.
import type { Db } from "./index";

/** Slots per window: a minute's window counts per second, an hour's per minute. */
const SLOTS = 60;

/** A rate counted: whether let through, and the window's count after it (weighted, may be fractional). */
export type SlotCount = { allowed: boolean; count: number; resetMs: number; retryAfterMs: number };

// $1 scope, $3 the current slot's start, $4 now, $5 the window, $6 the slot's width, $7 the limit;
// `key` the counted key (an expression), `only` a condition the count also needs, `many` how many
// requests are counted (a parameter's place, or 1). Times are whole milliseconds: of the slot
// being left, the milliseconds after now - window are inside. The last of `many` requests is let
// through while the count before it is under the limit, so all of them are.
const counted = (key: string, only = "true", many = "1") => `
async AS (SELECT set_config('synchronous_commit', 'off', true)),
before AS (
  SELECT coalesce(sum(CASE WHEN at <= $4::bigint - $5::bigint THEN n * ($6::bigint - 1 - ($4::bigint - $5::bigint - at))::float8 / $6::bigint ELSE n END), 0) AS n,
    min(at) AS oldest
  FROM rate_counts WHERE scope = $1 AND key = ${key} AND at > $4::bigint - $5::bigint - $6::bigint AND at < $3::bigint
),
hit AS (
  INSERT INTO rate_counts (scope, key, at, n, gone_at)
  SELECT $1, ${key}, $3::bigint, ${many}, $3::bigint + $5::bigint + $6::bigint FROM before, async WHERE ${only} AND before.n + ${many} - 1 < $7::integer
  ON CONFLICT (scope, key, at) DO UPDATE SET n = rate_counts.n + ${many}
  WHERE rate_counts.n + (SELECT n FROM before) + ${many} - 1 < $7::integer
  RETURNING n
)`;

// $2 the key. No row: refused.
const HIT = `WITH ${counted("$2")} SELECT hit.n, before.n AS before, before.oldest FROM hit, before`;

/**
 * An API key's request (lib/auth/caller): the key whose hash is $2, its admin and its club's
 * language, read, and the request counted under the key's id, in one statement (a round trip of
 * every keyed request fewer). Counted only for a key that serves ($8: now, ISO, as the times are
 * stored): neither revoked nor expired, its admin's access not ended. `n` null: not counted (a
 * key that does not serve, or the limit reached).
 */
const KEY_HIT = `WITH subject AS (
  SELECT k.id, k.club_id, k.prefix, k.key_hash, k.scopes, k.expires_at, k.revoked_at,
    a.id AS admin_id, a.read_only, a.is_superadmin, a.removed_at, a.access_expires_at, c.locale,
    k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $8) AND a.removed_at IS NULL
      AND (a.access_expires_at IS NULL OR a.access_expires_at > $8) AS serves
  FROM api_keys k JOIN admins a ON a.id = k.admin_id JOIN clubs c ON c.id = k.club_id
  WHERE k.key_hash = $2 LIMIT 1
), ${counted("(SELECT id FROM subject)", "(SELECT serves FROM subject)", "$9::integer")}
SELECT subject.*, (SELECT n FROM hit) AS n, before.n AS before, before.oldest FROM subject, before`;

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
  const [hit] = await db.query<Hit>(HIT, [scope, key, at, now, windowMs, slot, limit], "rate.hit");
  return hit ? allowed(hit, at, windowMs, now) : refused(db, scope, key, limit, windowMs, now);
}

type Hit = { n: number; before: number; oldest: number | null };

function allowed(hit: Hit, at: number, windowMs: number, now: number): SlotCount {
  const oldest = hit.oldest ?? at;
  return { allowed: true, count: hit.n + hit.before, resetMs: Math.max(0, oldest + windowMs - now), retryAfterMs: 0 };
}

/**
 * Refused: the earliest moment the window holds fewer than the limit, the count only falling as
 * the slots leave it (at the latest, when every slot held now has left).
 */
async function refused(db: Db, scope: string, key: string, limit: number, windowMs: number, now: number): Promise<SlotCount> {
  const slot = Math.max(1, Math.floor(windowMs / SLOTS));
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

/** An API key as lib/auth/caller reads it, its admin's columns prefixed (`scopes`: the stored JSON text). */
export type KeyRow = {
  id: string;
  club_id: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  admin_id: string;
  read_only: boolean;
  is_superadmin: boolean;
  removed_at: string | null;
  access_expires_at: string | null;
  locale: string;
};

/** A key's request as countKeyRequest answers it. Null: no such key. `count` null: the key does not serve, nothing counted. */
export type KeyCount = { key: KeyRow; count: SlotCount | null } | null;

type Waiting = { now: number; resolve: (counted: KeyCount) => void; reject: (err: unknown) => void };

/** Per database, per scope and key hash: the requests waiting for the key's statement out to come back. */
const groups = new WeakMap<Db, Map<string, Waiting[]>>();

/**
 * The API key whose hash is `hash` and, when it serves (not revoked or expired, its admin's
 * access not ended), its request counted in `scope` under its id against `limit` per `windowMs`
 * at `now`: one statement, shared with the key's requests that arrive meanwhile (see the header).
 */
export function countKeyRequest(db: Db, scope: string, hash: string, limit: number, windowMs: number, now: number): Promise<KeyCount> {
  let byKey = groups.get(db);
  if (!byKey) {
    byKey = new Map();
    groups.set(db, byKey);
  }
  const name = `${scope} ${hash}`;
  const waiting = byKey.get(name);
  if (waiting) return new Promise((resolve, reject) => waiting.push({ now, resolve, reject }));
  byKey.set(name, []);
  const out = countKeyRequests(db, scope, hash, limit, windowMs, [now]);
  void out.finally(() => countWaiting(db, byKey, name, scope, hash, limit, windowMs)).catch(() => {});
  return out.then((all) => all[0]);
}

/** Counts the requests that waited for the statement just back, as one group, until none wait; then the key has no statement out. */
async function countWaiting(db: Db, byKey: Map<string, Waiting[]>, name: string, scope: string, hash: string, limit: number, windowMs: number) {
  for (let group = byKey.get(name); group?.length; group = byKey.get(name)) {
    byKey.set(name, []);
    try {
      const counted = await countKeyRequests(
        db,
        scope,
        hash,
        limit,
        windowMs,
        group.map((w) => w.now),
      );
      for (const [i, w] of group.entries()) w.resolve(counted[i]);
    } catch (err) {
      for (const w of group) w.reject(err);
    }
  }
  byKey.delete(name);
}

/**
 * The requests of one key (their times `nows`) counted in one statement, let through together
 * while the window holds room for all; otherwise each counted on its own (at once: the counter's
 * row lock orders them), as exact as one request is.
 */
async function countKeyRequests(db: Db, scope: string, hash: string, limit: number, windowMs: number, nows: number[]): Promise<KeyCount[]> {
  const many = nows.length;
  const now = Math.max(...nows);
  const slot = Math.max(1, Math.floor(windowMs / SLOTS));
  const at = now - (now % slot);
  const params = [scope, hash, at, now, windowMs, slot, limit, new Date(now).toISOString(), many];
  const [row] = await db.query<KeyRow & Hit & { serves: boolean }>(KEY_HIT, params, "rate.key");
  if (!row) return nows.map(() => null);
  const { serves, n, before, oldest, ...key } = row;
  if (!serves) return nows.map(() => ({ key, count: null }));
  if (n !== null) return nows.map((_, i) => ({ key, count: allowed({ n: n - many + i + 1, before, oldest }, at, windowMs, now) }));
  if (many === 1) return [{ key, count: await refused(db, scope, key.id, limit, windowMs, now) }];
  return Promise.all(nows.map(async (one) => (await countKeyRequests(db, scope, hash, limit, windowMs, [one]))[0]));
}

/** Forgets the slots that have left their window by `now`: the requests they counted. */
export async function purgeSlots(db: Db, now: number): Promise<number> {
  const [gone] = await db.query<{ n: number | null }>(
    "WITH gone AS (DELETE FROM rate_counts WHERE gone_at <= $1::bigint RETURNING n) SELECT sum(n) AS n FROM gone",
    [now],
  );
  return Number(gone?.n ?? 0);
}
