// One-time sign-in links: how an admin without a password (the owner the first start creates) or
// one who lost it gets into the dashboard with no CLI at hand. The first start prints one beside
// the API key; `cli admins sign-in-link` makes a fresh one. Opening the link shows a form that
// chooses a password: sending it spends the link, sets the password and opens a session, so the
// admin comes back later with their email and password. Opening alone spends nothing: chat apps
// and mail scanners open links to preview them, and would otherwise use the link up first.
import { and, eq, gt, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db";
import { lockRows } from "../../db/locks";
import { adminSessions, adminSignInLinks, admins, clubs } from "../../db/schema";
import { AppError, type Invalid, ValidationFailed } from "../errors";
import { asLocale, type Locale } from "../i18n";
import { signInBackoff } from "../ratelimit";
import { newId, randomBase62, sha256Hex } from "../ids";
import { adminAccessEnded } from "./caller";
import { openSession, type LoginResponse } from "./sessions";

/**
 * How long a link works. 24 hours: long enough for "install it today, open it after lunch or
 * tomorrow morning", short enough that the line a server's log keeps (journald, `docker logs`,
 * for weeks) stops being a way into the owner's account the next day. A lost or late link costs
 * one CLI command (`admins sign-in-link`).
 */
export const SIGN_IN_LINK_HOURS = 24;

/** Where the link leads: a dashboard page taking the token in its query, which request logs and the audit log (paths only) never record. */
export const SIGN_IN_LINK_PATH = "/admin/welcome";

/**
 * Shortest password the link's form accepts. Online guessing is already slow (argon2id, the
 * per-address rate, the per-account back-off); 12 characters keeps a stolen database's hashes
 * out of reach of cheap offline guessing, and a few words make one easily.
 */
export const PASSWORD_MIN = 12;

/** The link's form. The password's longest is the sign-in's (LoginRequest), so that it can sign in. */
export const SetPasswordRequest = z.object({
  token: z.string().max(100),
  password: z.string().max(200),
  confirm: z.string().max(200),
});
export type SetPasswordRequest = z.infer<typeof SetPasswordRequest>;

export type SignInLink = { url: string; expires_at: string };

/**
 * A fresh link for `adminId`, valid SIGN_IN_LINK_HOURS; the admin's earlier unused links stop
 * working (only the newest one printed or sent is meant to be used). Only its hash is stored.
 */
export async function createSignInLink(db: Db, input: { adminId: string; baseUrl: string; now?: Date }): Promise<SignInLink> {
  const now = input.now ?? new Date();
  const token = randomBase62(43);
  const expires_at = new Date(now.getTime() + SIGN_IN_LINK_HOURS * 3600_000).toISOString();
  await db.tx(async (t) => {
    // The admin's row first: two links made at once (two processes) come one after the other, and
    // the second's delete sees the first's link.
    await lockRows(t, admins, admins.id, input.adminId);
    await t.delete(adminSignInLinks).where(and(eq(adminSignInLinks.admin_id, input.adminId), isNull(adminSignInLinks.used_at)));
    await t.insert(adminSignInLinks).values({ id: newId(), admin_id: input.adminId, token_hash: sha256Hex(token), expires_at, created_at: now.toISOString() });
  });
  return { url: `${input.baseUrl}${SIGN_IN_LINK_PATH}?token=${token}`, expires_at };
}

type LinkRow = { link: typeof adminSignInLinks.$inferSelect; admin: typeof admins.$inferSelect; locale: string };

async function findLink(db: Db, token: string): Promise<LinkRow | undefined> {
  if (!token || token.length > 100) return undefined;
  const [row] = await db.read
    .select({ link: adminSignInLinks, admin: admins, locale: clubs.locale })
    .from(adminSignInLinks)
    .innerJoin(admins, eq(admins.id, adminSignInLinks.admin_id))
    .innerJoin(clubs, eq(clubs.id, admins.club_id))
    .where(eq(adminSignInLinks.token_hash, sha256Hex(token)))
    .limit(1);
  return row;
}

/** Why a link cannot be used (the same answer for an unknown token and a spent one: neither tells anything). */
function refusal(row: LinkRow | undefined, now: Date): AppError | null {
  const err = (code: "SIGN_IN_LINK_USED" | "SIGN_IN_LINK_EXPIRED") => {
    const e = new AppError(410, code, code === "SIGN_IN_LINK_EXPIRED" ? { hours: SIGN_IN_LINK_HOURS } : {});
    if (row) e.clubLocale = asLocale(row.locale);
    return e;
  };
  if (!row || row.link.used_at !== null || adminAccessEnded(row.admin, now)) return err("SIGN_IN_LINK_USED");
  if (Date.parse(row.link.expires_at) <= now.getTime()) return err("SIGN_IN_LINK_EXPIRED");
  return null;
}

/**
 * Who a link signs in, for its form (nothing is spent). 410 SIGN_IN_LINK_USED for an unknown,
 * used or replaced link or an admin whose access has ended, 410 SIGN_IN_LINK_EXPIRED.
 */
export async function signInLinkAdmin(db: Db, token: string, now = new Date()): Promise<{ email: string; locale: Locale; expires_at: string }> {
  const row = await findLink(db, token);
  const refused = refusal(row, now);
  if (refused || !row) throw refused;
  return { email: row.admin.email, locale: asLocale(row.locale), expires_at: row.link.expires_at };
}

/**
 * Spends the link: sets the admin's password and opens a dashboard session, once. The link is
 * spent by one conditional write (`used_at` still null and not expired), so two sends of the form
 * (two tabs, a double click) sign in once; the other gets 410 SIGN_IN_LINK_USED. The admin's
 * other sessions end: a new password is often chosen because the old one may be known. 422 (the
 * password too short or the two entries different, told on the field) is checked before the
 * link is touched, so a typo does not use it up.
 */
export async function useSignInLink(db: Db, input: SetPasswordRequest, ip: string | null, now = new Date()): Promise<z.infer<typeof LoginResponse>> {
  const row = await findLink(db, input.token);
  const refused = refusal(row, now);
  if (refused || !row) throw refused;
  const problems: Invalid[] = [];
  if ([...input.password].length < PASSWORD_MIN) problems.push({ loc: ["body", "password"], code: "PASSWORD_TOO_SHORT", params: { min: PASSWORD_MIN } });
  else if (input.confirm !== input.password) problems.push({ loc: ["body", "confirm"], code: "PASSWORDS_DIFFER" });
  if (problems.length) {
    const e = new ValidationFailed(problems);
    e.clubLocale = asLocale(row.locale);
    throw e;
  }
  // The slow hash before the write transaction, which must not wait on it.
  const hash = await Bun.password.hash(input.password);
  const session = await db.tx(async (t) => {
    const [spent] = await t
      .update(adminSignInLinks)
      .set({ used_at: now.toISOString() })
      .where(and(eq(adminSignInLinks.id, row.link.id), isNull(adminSignInLinks.used_at), gt(adminSignInLinks.expires_at, now.toISOString())))
      .returning({ id: adminSignInLinks.id });
    if (!spent) return null;
    await t.update(admins).set({ password_hash: hash }).where(eq(admins.id, row.admin.id));
    await t.delete(adminSessions).where(eq(adminSessions.admin_id, row.admin.id));
    return openSession(t, row.admin, now);
  });
  if (!session) {
    const e = new AppError(410, "SIGN_IN_LINK_USED");
    e.clubLocale = asLocale(row.locale);
    throw e;
  }
  // A sign-in as any other: the address becomes one the account signed in from (a stranger's
  // wrong passwords elsewhere cannot lock the owner out of it), its own failures forgotten.
  await signInBackoff(db).succeeded(row.admin.email.toLowerCase(), ip);
  return session;
}
