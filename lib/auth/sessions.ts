// Dashboard sessions: an admin signs in with email and password (hashed with Bun.password) and
// receives a bearer token (`ms_...`) for the account routes that keys may not use, or the
// dashboard's cookie. A session lasts 12 hours without activity and 30 days at most (DESIGN.md
// section 16): each use pushes its end forward (refreshSession), never past the 30 days.
import { eq } from "drizzle-orm";
import { z } from "zod";
import { emailLine } from "../schema-types";
import type { Db, Queryable } from "../../db";
import { adminSessions } from "../../db/schema";
import type { PublicCtx } from "../context";
import { RateLimited, Unauthorized } from "../errors";
import { newId, randomBase62, sha256Hex } from "../ids";
import { type AddressRate, signInBackoff } from "../ratelimit";
import { findAdminByEmail } from "./admins";
import { adminAccessEnded, SESSION_PREFIX } from "./caller";

const SESSION_HOURS = 12;
/** A session ends this long after sign-in, however active. */
export const SESSION_MAX_DAYS = 30;
/** A session's end is rewritten at most this often: a write per page view would be a disk sync per click. */
const REFRESH_EVERY_MS = 5 * 60_000;

export const LoginRequest = z
  .object({ email: emailLine(), password: z.string().min(1).max(200) })
  .meta({ id: "LoginRequest", examples: [{ email: "owner@example.org", password: "your password" }] });
export const LoginResponse = z.object({ token: z.string(), expires_at: z.string(), admin_id: z.uuid(), club_id: z.uuid() }).meta({ id: "LoginResponse" });

/**
 * Sign-in attempts a minute per client address: each costs a deliberately slow password check
 * (argon2id, about 0.1 s and 64 MiB), so without a limit a guesser would also tie up the server.
 */
export const LOGIN_ATTEMPTS_PER_MINUTE = 10;

/** The rate POST /api/auth/login declares. */
export const LOGIN_RATE: AddressRate = { scope: "login", perMinute: LOGIN_ATTEMPTS_PER_MINUTE };

/**
 * A session for the admin whose email and password these are. 401 INVALID_CREDENTIALS for a wrong
 * pair (the same answer and time for an unknown email), 401 ADMIN_ACCESS_ENDED for an admin whose
 * access has ended (told only once the password is right), 429 LOGIN_TOO_MANY_FAILURES (with
 * Retry-After) while the account waits after repeated failures at this address, or from
 * addresses it never signed in from (lib/ratelimit SignInBackoff).
 */
export async function login(ctx: PublicCtx, input: z.infer<typeof LoginRequest>): Promise<z.infer<typeof LoginResponse>> {
  const { db } = ctx;
  // Per account, whether it exists or not (the same answers for an unknown email).
  const backoff = signInBackoff(db);
  const account = input.email.trim().toLowerCase();
  const wait = await backoff.attempt(account, ctx.ip);
  if (wait) throw new RateLimited(wait, "LOGIN_TOO_MANY_FAILURES");
  const admin = await findAdminByEmail(db, input.email);
  // Verify against a dummy hash when the admin is unknown so both paths take the same time.
  const hash = admin?.password_hash ?? "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$K3sJ0Tq3lJQ1tm6Cd1R7n4nQ2mQ3pLNpQ8Y0x3m2b1c";
  const ok = await Bun.password.verify(input.password, hash).catch(() => false);
  if (!admin?.password_hash || !ok || admin.removed_at) throw new Unauthorized("INVALID_CREDENTIALS");
  await backoff.succeeded(account, ctx.ip);
  if (adminAccessEnded(admin, new Date())) throw new Unauthorized("ADMIN_ACCESS_ENDED");
  return db.tx((t) => openSession(t, admin));
}

/** A new session of `admin`, written on `t`: its token (shown once, stored hashed) and end. */
export async function openSession(t: Queryable, admin: { id: string; club_id: string }, now = new Date()): Promise<z.infer<typeof LoginResponse>> {
  const token = SESSION_PREFIX + randomBase62(40);
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3600_000).toISOString();
  await t.insert(adminSessions).values({ id: newId(), admin_id: admin.id, token_hash: sha256Hex(token), expires_at: expiresAt, created_at: now.toISOString() });
  return { token, expires_at: expiresAt, admin_id: admin.id, club_id: admin.club_id };
}

/**
 * Pushes the session's end to 12 hours from now (not past 30 days from sign-in), at most every
 * five minutes. A session that has already ended (or is unknown) is left alone: resolveCaller
 * refuses it.
 */
export async function refreshSession(db: Db, token: string, now = new Date()): Promise<void> {
  const hash = sha256Hex(token);
  const [row] = await db.read
    .select({ id: adminSessions.id, expires_at: adminSessions.expires_at, created_at: adminSessions.created_at })
    .from(adminSessions)
    .where(eq(adminSessions.token_hash, hash))
    .limit(1);
  if (!row || Date.parse(row.expires_at) <= now.getTime()) return;
  const lastRefresh = Date.parse(row.expires_at) - SESSION_HOURS * 3600_000;
  if (now.getTime() - lastRefresh < REFRESH_EVERY_MS) return;
  const end = Math.min(now.getTime() + SESSION_HOURS * 3600_000, Date.parse(row.created_at) + SESSION_MAX_DAYS * 86400_000);
  if (end <= Date.parse(row.expires_at)) return;
  await db.tx((t) =>
    t
      .update(adminSessions)
      .set({ expires_at: new Date(end).toISOString() })
      .where(eq(adminSessions.id, row.id)),
  );
}

/** Signs out: the session's row is deleted, so its token answers 401 from now on. */
export async function endSession(db: Db, token: string): Promise<void> {
  await db.tx((t) => t.delete(adminSessions).where(eq(adminSessions.token_hash, sha256Hex(token))));
}
