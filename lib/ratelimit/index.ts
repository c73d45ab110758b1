// Request rates as sliding windows of the times of the requests let through: per API key (SPEC
// "Limits": 300 a minute) and per client address on the public routes (DESIGN section 11). A
// refused request is not counted, so `Retry-After` is true: a client that waits that long gets
// through. On SQLite, whose one server process serves the API, the windows are held in memory; on
// PostgreSQL, where several processes serve it, in the database (`rate_counts`), so that they
// count together (hitRate). A public route declares its rate on itself (`rateLimit` in server/route),
// and the request pipeline counts it before the handler.
import { and, desc, eq, gt, inArray, lte } from "drizzle-orm";
import type { Db } from "../../db";
import { lockName } from "../../db/locks";
import { countInSlots, purgeSlots, type SlotCount } from "../../db/rates";
import { signInAddresses, signInFailures } from "../../db/schema";
import { RateLimited } from "../errors";
import { recurringJob } from "../jobs";

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

function limiterOf(owner: object, scope: string, limit: number, windowMs: number): SlidingWindowLimiter {
  let scopes = byAddress.get(owner);
  if (!scopes) {
    scopes = new Map();
    byAddress.set(owner, scopes);
  }
  let limiter = scopes.get(scope);
  if (!limiter) {
    limiter = new SlidingWindowLimiter(limit, windowMs);
    scopes.set(scope, limiter);
  }
  return limiter;
}

/**
 * Counts a request of `key` in `scope` against `limit` per `windowMs`: in memory on SQLite, in
 * `rate_counts` on PostgreSQL (db/rates.ts), where a counter per slot of the window is raised by
 * one statement that every process's requests go through: the limit holds for all of them
 * together, as it does for one.
 */
export async function hitRate(db: Db, scope: string, key: string, limit: number, windowMs: number, now = Date.now()): Promise<RateDecision> {
  if (db.engine !== "postgres") return limiterOf(db, scope, limit, windowMs).hit(key, now);
  return slotDecision(await countInSlots(db, scope, key, limit, windowMs, now), limit);
}

/** The decision of a count taken in the database (db/rates.ts) against `limit`. */
export function slotDecision({ allowed, count, resetMs, retryAfterMs }: SlotCount, limit: number): RateDecision {
  const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
  return {
    allowed,
    limit,
    // The requests still let through: while the (weighted) count stays under the limit.
    remaining: Math.max(0, Math.ceil(limit - count)),
    resetSeconds,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(retryAfterMs / 1000)),
  };
}

/** Forgets the requests older than any window at `now` (PostgreSQL: the windows of callers gone quiet); how many. */
export async function purgeRateHits(db: Db, now = Date.now()): Promise<number> {
  if (db.engine !== "postgres") return 0;
  const gone = await purgeSlots(db, now);
  return db.tx(async (t) => {
    // And the sign-in counts past being forgotten (an hour after the last failure), the addresses past 30 days.
    const failures = await t
      .delete(signInFailures)
      .where(lte(signInFailures.last_at, now - 3_600_000))
      .returning({ key: signInFailures.key });
    const addresses = await t
      .delete(signInAddresses)
      .where(lte(signInAddresses.at, now - KNOWN_ADDRESS_DAYS * 86_400_000))
      .returning({ at: signInAddresses.at });
    return gone + failures.length + addresses.length;
  });
}

/**
 * Counts a request of client address `ip` (null: unknown, all such share one count) against
 * `perMinute` requests a minute in `scope` (or `perMinute` per `windowMs`); 429 RATE_LIMITED with
 * Retry-After beyond it.
 */
export async function limitAddress(db: Db, scope: string, perMinute: number, ip: string | null, now = Date.now(), windowMs = 60_000): Promise<void> {
  const decision = await hitRate(db, scope, `ip:${ip ?? "unknown"}`, perMinute, windowMs, now);
  if (!decision.allowed) throw new RateLimited(decision.retryAfterSeconds);
}

/** Counts a request against `limit` per `windowMs` in `scope`, every caller together (a ceiling for the whole server); 429 beyond it. */
export async function limitOverall(db: Db, scope: string, limit: number, windowMs: number, now = Date.now()): Promise<void> {
  const decision = await hitRate(db, scope, "all", limit, windowMs, now);
  if (!decision.allowed) throw new RateLimited(decision.retryAfterSeconds);
}

/**
 * Failed attempts per key (an account, or an account at one address): each attempt counts as a
 * failure when it starts (so parallel attempts cannot all slip in before the first one fails)
 * and a success forgets the key. The first `free` failures cost nothing; from then on the key
 * waits a delay that doubles with each further failure (15 s, 30 s, 1 min, ... at most 15 min)
 * after its last one. An attempt made while it waits is refused without being counted, so
 * Retry-After is true. Failures are forgotten an hour after the last. In memory, like the other
 * limits.
 */
export class FailureBackoff {
  private readonly accounts = new Map<string, { failures: number; last: number }>();
  private swept = 0;

  constructor(
    readonly free = 5,
    readonly baseMs = 15_000,
    readonly maxMs = 15 * 60_000,
    readonly forgetMs = 60 * 60_000,
  ) {}

  /** The wait after `failures` failures (0 while they are free). */
  delayMs(failures: number): number {
    return failures < this.free ? 0 : Math.min(this.maxMs, this.baseMs * 2 ** (failures - this.free));
  }

  private current(account: string, now: number) {
    if (now - this.swept >= this.forgetMs) {
      for (const [key, entry] of this.accounts) if (entry.last <= now - this.forgetMs) this.accounts.delete(key);
      this.swept = now;
    }
    const entry = this.accounts.get(account);
    return entry && entry.last > now - this.forgetMs ? entry : undefined;
  }

  /** The seconds `account` must still wait before it may try (0: it may). */
  waitSeconds(account: string, now = Date.now()): number {
    const entry = this.current(account, now);
    const waitMs = entry ? entry.last + this.delayMs(entry.failures) - now : 0;
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }

  /** Counts a failure of `account` at `now`. */
  fail(account: string, now = Date.now()): void {
    this.accounts.set(account, { failures: (this.current(account, now)?.failures ?? 0) + 1, last: now });
  }

  /** Starts an attempt on `account`: the seconds it must still wait (the attempt is refused), or 0 (counted as a failure until `succeeded`). */
  attempt(account: string, now = Date.now()): number {
    const wait = this.waitSeconds(account, now);
    if (!wait) this.fail(account, now);
    return wait;
  }

  /** The attempt succeeded: the account starts afresh. */
  succeeded(account: string): void {
    this.accounts.delete(account);
  }

  /** Accounts with failures held (memory in use). */
  get size(): number {
    return this.accounts.size;
  }
}

/**
 * What counts as one client address for the sign-in: an IPv4 address, or an IPv6 address's /64
 * (a home or office network, whose machines change their last 64 bits daily).
 */
export function addressGroup(ip: string | null): string {
  if (!ip) return "unknown";
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.slice(7);
  if (!ip.includes(":")) return ip;
  const [head, tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** How long an address the account signed in from stays one it may always try from. */
export const KNOWN_ADDRESS_DAYS = 30;
/** Addresses remembered per account (the newest): a person's home, office, phone... */
const KNOWN_ADDRESSES = 10;

/**
 * Sign-in failures (issue 18 item 9, issue 32). Two counts: per account and address, five free
 * failures then the doubling wait (a person mistyping, or a guesser at one address); per account
 * over every address it never signed in from, twenty free then the same wait (guessing spread
 * over many addresses). An address the account signed in from in the last 30 days is held by the
 * first count only: a stranger's failures, from wherever, cannot lock the owner out of their
 * usual address. Held in memory on SQLite (SignInBackoff), in the database on PostgreSQL
 * (SharedSignInBackoff), where several processes take sign-ins.
 */
export type SignInCounts = {
  /** Starts an attempt on `account` from `ip`: the seconds it must still wait (refused, not counted), or 0 (counted as a failure until `succeeded`). */
  attempt(account: string, ip: string | null, now?: number): Promise<number>;
  /** The attempt succeeded: the address starts afresh and is remembered as the account's (the count over unknown addresses stays: a guessing run may go on elsewhere). */
  succeeded(account: string, ip: string | null, now?: number): Promise<void>;
};

/** The counts of one process, in memory (SQLite). */
export class SignInBackoff implements SignInCounts {
  readonly byAddress = new FailureBackoff(5);
  readonly byAccount = new FailureBackoff(20);
  private readonly known = new Map<string, Map<string, number>>();

  private isKnown(account: string, address: string, now: number): boolean {
    const at = this.known.get(account)?.get(address);
    return at !== undefined && at > now - KNOWN_ADDRESS_DAYS * 86_400_000;
  }

  async attempt(account: string, ip: string | null, now = Date.now()): Promise<number> {
    const address = addressGroup(ip);
    const here = `${account}\n${address}`;
    const known = this.isKnown(account, address, now);
    const wait = Math.max(this.byAddress.waitSeconds(here, now), known ? 0 : this.byAccount.waitSeconds(account, now));
    if (wait) return wait;
    this.byAddress.fail(here, now);
    if (!known) this.byAccount.fail(account, now);
    return 0;
  }

  async succeeded(account: string, ip: string | null, now = Date.now()): Promise<void> {
    const address = addressGroup(ip);
    this.byAddress.succeeded(`${account}\n${address}`);
    const addresses = this.known.get(account) ?? new Map<string, number>();
    addresses.delete(address);
    addresses.set(address, now);
    for (const [old] of addresses) if (addresses.size > KNOWN_ADDRESSES) addresses.delete(old);
    this.known.set(account, addresses);
  }
}

/**
 * The same counts in the database (PostgreSQL): `sign_in_failures` and `sign_in_addresses`, read
 * and written in one transaction per attempt under a lock on the account's name, so attempts on
 * one account at the same moment in several processes count one after the other, as in memory.
 */
export class SharedSignInBackoff implements SignInCounts {
  private readonly rules = new SignInBackoff();

  constructor(private readonly db: Db) {}

  async attempt(account: string, ip: string | null, now = Date.now()): Promise<number> {
    const { byAddress, byAccount } = this.rules;
    const address = addressGroup(ip);
    const here = `address:${account}\n${address}`;
    const all = `account:${account}`;
    return this.db.tx(async (t) => {
      await lockName(t, `sign-in:${account}`);
      const [seen] = await t
        .select({ at: signInAddresses.at })
        .from(signInAddresses)
        .where(and(eq(signInAddresses.account, account), eq(signInAddresses.address, address), gt(signInAddresses.at, now - KNOWN_ADDRESS_DAYS * 86_400_000)));
      const known = seen !== undefined;
      const rows = new Map(
        (
          await t
            .select()
            .from(signInFailures)
            .where(inArray(signInFailures.key, [here, all]))
        ).map((r) => [r.key, r]),
      );
      // A count whose last failure is older than `forgetMs` is forgotten, as in memory.
      const failures = (key: string, rule: FailureBackoff) => {
        const row = rows.get(key);
        return row && row.last_at > now - rule.forgetMs ? row : undefined;
      };
      const waitOf = (key: string, rule: FailureBackoff) => {
        const row = failures(key, rule);
        const ms = row ? row.last_at + rule.delayMs(row.failures) - now : 0;
        return ms > 0 ? Math.ceil(ms / 1000) : 0;
      };
      const wait = Math.max(waitOf(here, byAddress), known ? 0 : waitOf(all, byAccount));
      if (wait) return wait;
      const counted = known ? [[here, byAddress] as const] : [[here, byAddress] as const, [all, byAccount] as const];
      for (const [key, rule] of counted) {
        const value = { failures: (failures(key, rule)?.failures ?? 0) + 1, last_at: now };
        await t
          .insert(signInFailures)
          .values({ key, ...value })
          .onConflictDoUpdate({ target: signInFailures.key, set: value });
      }
      return 0;
    });
  }

  async succeeded(account: string, ip: string | null, now = Date.now()): Promise<void> {
    const address = addressGroup(ip);
    await this.db.tx(async (t) => {
      await lockName(t, `sign-in:${account}`);
      await t.delete(signInFailures).where(eq(signInFailures.key, `address:${account}\n${address}`));
      await t
        .insert(signInAddresses)
        .values({ account, address, at: now })
        .onConflictDoUpdate({ target: [signInAddresses.account, signInAddresses.address], set: { at: now } });
      const older = await t
        .select({ address: signInAddresses.address })
        .from(signInAddresses)
        .where(eq(signInAddresses.account, account))
        .orderBy(desc(signInAddresses.at))
        .offset(KNOWN_ADDRESSES);
      if (older.length)
        await t.delete(signInAddresses).where(
          and(
            eq(signInAddresses.account, account),
            inArray(
              signInAddresses.address,
              older.map((o) => o.address),
            ),
          ),
        );
    });
  }
}

const backoffs = new WeakMap<object, SignInCounts>();

/** The sign-in failures of one database: in this process's memory on SQLite, in the database on PostgreSQL. */
export function signInBackoff(db: Db): SignInCounts {
  let backoff = backoffs.get(db);
  if (!backoff) {
    backoff = db.engine === "postgres" ? new SharedSignInBackoff(db) : new SignInBackoff();
    backoffs.set(db, backoff);
  }
  return backoff;
}

/** The purge of `rate_counts` and the sign-in counts, hourly (the server ensures it at start; nothing to purge on SQLite). */
export const RATE_PURGE = "rate.purge";
export const ratePurge = recurringJob(RATE_PURGE, 3_600_000, async (db, env) => `${await purgeRateHits(db, env.now.getTime())} purged`);
