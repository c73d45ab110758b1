// Helpers of the members area: club-scoped lookups ("get in club or throw"), item shaping, the
// search text, dates, codes, and the history row every transition writes.
import { and, Column, eq, inArray, sql } from "drizzle-orm";
import { alias } from "../../db/dialect";
import { lockName, lockNameShared, lockRows, namingRead } from "../../db/locks";
import { clubMembersIn, type Db, insertRowAhead, type Queryable } from "../../db";
import { clubs, memberHistory, members, tiers } from "../../db/schema";
import { NotFound } from "../errors";
import { hourLedReadableCode, newId, nowIso, randomBase62, sha256Hex, timeOrderedBase62 } from "../ids";
import type { MemberAdminItem, PaymentStatus } from "./schemas";
import { foldText } from "../../db/text";
import { derivedStatus, statusOn, todayUtc } from "./status";
import { keptTerms } from "./kept";
import { clubGraceDays } from "../clubs/internal";
import { addDays } from "../days";
import type { Emitter } from "../webhooks/emit";

export { foldText, sortNameOf } from "../../db/text";

export type MemberRow = typeof members.$inferSelect;

export function searchTextOf(m: { first_name: string; last_name: string; email: string; referral_code: string }): string {
  return foldText(`${m.first_name} ${m.last_name} ${m.email} ${m.referral_code}`);
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

// ---- dates (YYYY-MM-DD, UTC) ----

export { addDays } from "../days";

/** Same day n months later, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number);
  const total = y * 12 + (m - 1) + n;
  const ny = Math.floor(total / 12);
  const nm = total % 12;
  const last = new Date(Date.UTC(ny, nm + 1, 0)).getUTCDate();
  return `${String(ny).padStart(4, "0")}-${String(nm + 1).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** The last day a `YYYY-MM-DD` date can name: date arithmetic past it leaves the format (five-digit years). */
export const LAST_DAY = "9999-12-31";
export const isStorableDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && day <= LAST_DAY;

/** Last day of a period of `months` starting on `start` (the end is inclusive). */
export const periodEnd = (start: string, months: number) => addDays(addMonths(start, months), -1);

// ---- stored status ----

/**
 * The change that gives the member the stored status `to` (suspend, reactivate, mark-paid and
 * import all go through it): entering `suspended` records the status it leaves (what reactivate
 * returns to); leaving `suspended` clears that record. Without `to`: the status it had before
 * its suspension (reactivate). Same status: no change.
 */
export function paymentStatusChange(
  m: Pick<MemberRow, "payment_status" | "status_before_suspension">,
  to: PaymentStatus = (m.status_before_suspension as PaymentStatus | null) ?? "paid",
): Pick<MemberRow, "payment_status" | "status_before_suspension"> | Record<string, never> {
  if (to === m.payment_status) return {};
  if (to === "suspended") return { payment_status: to, status_before_suspension: m.payment_status };
  return { payment_status: to, status_before_suspension: null };
}

// ---- codes ----

/** Where referral codes are drawn: a test replaces `referral` to force a collision. */
export const codeSource = { referral: () => hourLedReadableCode(8) };
export const newReferralCode = () => codeSource.referral();

/** Rounds of draws before giving up: 25^7 codes of the hour's first character make even one collision rare. */
const REFERRAL_DRAWS = 10;

/** The names the members' writers lock (lockMemberEmails, lockMemberEmail, freeReferralCode, lib/members checkEmail). */
export const memberLockNames = {
  club: (clubId: string) => `members.email:${clubId}`,
  email: (clubId: string, email: string) => `members.email:${clubId}:${email}`,
  referral: (clubId: string, code: string) => `members.referral:${clubId}:${code}`,
};

/**
 * Held until the transaction ends by an import's batch, which reads many emails as free and then
 * writes members with them: it waits for every other writer of the club's members' emails, and
 * they for it, on any engine and across processes.
 */
export async function lockMemberEmails(t: Queryable, clubId: string): Promise<void> {
  await lockName(t, memberLockNames.club(clubId));
}

/**
 * Held until the transaction ends by whoever reads "is this email free in the club" and then
 * writes a member with it (a create, an email change, a join): the club's lock shared (such
 * writers of other emails run side by side; an import's batch waits for them, they for it), then
 * the email's own, so that two writers of one email run one after the other. Without `email`: the
 * club's shared lock only, taken first by a transaction that locks a member's row before it
 * knows the email (the same order as an import: the club, then the rows). One order everywhere,
 * so no two writers wait on each other in a circle: the club's lock, the member's row, the
 * email's lock (an admin's transition, the member's page: lib/member-page memberForEmailChange).
 */
export async function lockMemberEmail(t: Queryable, clubId: string, email?: string): Promise<void> {
  await lockNameShared(t, memberLockNames.club(clubId));
  if (email !== undefined) await lockName(t, memberLockNames.email(clubId, email));
}

/**
 * `n` distinct referral codes no member of the club has (unique index (club_id, referral_code)):
 * drawn, checked in batches, and drawn again where taken. Read in the writing transaction `t`, so
 * no other writer takes a code before the insert. An import draws all its codes at once.
 */
export async function freeReferralCodes(t: Queryable, clubId: string, n: number): Promise<string[]> {
  const free: string[] = [];
  const seen = new Set<string>();
  for (let round = 0; free.length < n; round++) {
    if (round === REFERRAL_DRAWS) throw new Error(`no free referral code in ${REFERRAL_DRAWS} rounds of draws`);
    const drawn: string[] = [];
    for (let i = free.length; i < n; i++) {
      const code = newReferralCode();
      if (!seen.has(code)) drawn.push(code);
      seen.add(code);
    }
    const taken = new Set<string>();
    for (let i = 0; i < drawn.length; i += 500) {
      const rows = await t
        .select({ code: members.referral_code })
        .from(members)
        .where(and(eq(members.club_id, clubId), inArray(members.referral_code, drawn.slice(i, i + 500))));
      for (const r of rows) taken.add(r.code);
    }
    // One by one: spreading hundreds of thousands of codes into push() overflowed the stack.
    for (const code of drawn) if (!taken.has(code)) free.push(code);
  }
  return free;
}

/**
 * One free referral code, for a writer that runs beside others of its club (a create, a join:
 * lockMemberEmail): the code's name is locked, then the code checked again, so two writers that
 * drew the same code check it one after the other and the second draws anew. (An import's batch
 * holds the club's lock alone, so its many codes need no such lock.)
 */
export async function freeReferralCode(t: Queryable, clubId: string): Promise<string> {
  for (let round = 0; round < REFERRAL_DRAWS; round++) {
    const [code] = await freeReferralCodes(t, clubId, 1);
    await lockName(t, memberLockNames.referral(clubId, code));
    const [taken] = await t
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.club_id, clubId), eq(members.referral_code, code)))
      .limit(1);
    if (!taken) return code;
  }
  throw new Error(`no free referral code in ${REFERRAL_DRAWS} rounds of draws`);
}

/**
 * The pass's serial: public (the web card /c/<serial>, /api/verify/<serial>), so 16 of its 24
 * characters are random; the first 8 are the time it was made, so that the unique index of
 * serials grows at its end (lib/ids timeOrderedBase62). Serials made before keep working: a
 * serial is only ever looked up whole.
 */
export const newPassSerial = () => timeOrderedBase62(24);
/**
 * A new token of the member's page (DESIGN.md section 14). The row keeps only `hash` (SHA-256,
 * as for API keys): `token` exists in the one answer or mail that carries the member's link, made
 * in the transaction that stores its hash. A link needed later (a reminder) is a new token: the
 * previous links stop working then.
 */
export function newManageToken(): { token: string; hash: string } {
  const token = randomBase62(32);
  return { token, hash: manageTokenHash(token) };
}

/**
 * What the row keeps for a member whose page has no token yet (an imported member, until a mail
 * makes one): in the form of a token's hash (64 hex characters, so neither the start's backfill of
 * missing tokens nor hashClearPageTokens rewrites it), the first 12 the millisecond clock and the
 * other 52 a hash's random tail, which no token hashes to. It was the hash of a token drawn and
 * thrown away: a random key of the unique index, whose pages an import of 100,000 members
 * rewrote at every commit (issue 31, import18); led by the clock, the index grows at its end.
 */
export function unknownPageToken(now = Date.now()): string {
  return Math.floor(now).toString(16).padStart(12, "0") + newManageToken().hash.slice(12);
}

/** What the row keeps of a page token, and what a page's address is looked up by. */
export const manageTokenHash = (token: string): string => sha256Hex(token);

/** The member's own page (DESIGN.md section 14): renew, card, name, email, data, erasure. */
export const memberPageUrl = (baseUrl: string, manageToken: string) => `${baseUrl}/m/${manageToken}`;

// ---- lookups and shaping ----

const pendingTier = alias(tiers, "pending_tier");
const referrer = alias(members, "referrer");

/** Members of the club with their tier, pending tier and referrer names, shaped as items. */
export async function loadItems(q: Queryable, clubId: string, ids: string[]): Promise<MemberAdminItem[]> {
  if (!ids.length) return [];
  const rows = await selectItems(q).where(clubMembersIn(clubId, ids));
  const byId = new Map(rows.map((r) => [r.m.id, toItem(r)]));
  return ids.map((id) => byId.get(id)).filter(Boolean) as MemberAdminItem[];
}

/**
 * The columns of a member that its item shows, and no other: a page reads and maps only these
 * (not the search text, sort key, pass tokens... of each row).
 */
const ITEM_COLUMNS = {
  id: members.id,
  first_name: members.first_name,
  last_name: members.last_name,
  email: members.email,
  membership_start: members.membership_start,
  membership_end: members.membership_end,
  payment_status: members.payment_status,
  referral_code: members.referral_code,
  pass_serial_number: members.pass_serial_number,
  has_wallet_a: members.has_wallet_a,
  has_wallet_b: members.has_wallet_b,
  has_web: members.has_web,
  payment_method: members.payment_method,
  tier_id: members.tier_id,
  pending_tier_id: members.pending_tier_id,
  pending_tier_change_at: members.pending_tier_change_at,
  is_manual: members.is_manual,
  payment_mode: members.payment_mode,
  invoice_company_name: members.invoice_company_name,
  referral_count: members.referral_count,
  referral_credit_cents: members.referral_credit_cents,
  acquisition_source: members.acquisition_source,
  custom_fields: members.custom_fields,
  profile_complete: members.profile_complete,
  card_email_sent_at: members.card_email_sent_at,
  card_email_reminder_sent_at: members.card_email_reminder_sent_at,
  card_installed_at: members.card_installed_at,
  renewal_opt_out_at: members.renewal_opt_out_at,
  mailing_opt_out_at: members.mailing_opt_out_at,
  email_bounced_at: members.email_bounced_at,
  email_bounced_address: members.email_bounced_address,
  erasure_requested_at: members.erasure_requested_at,
  application_status: members.application_status,
  created_at: members.created_at,
};

export function selectItems(q: Queryable) {
  return q
    .select({
      m: ITEM_COLUMNS,
      tier_name: tiers.name,
      pending_tier_name: pendingTier.name,
      ref_first: referrer.first_name,
      ref_last: referrer.last_name,
      // The status shown is the club's (its grace period): every item carries it.
      grace: clubs.grace_period_days,
    })
    .from(members)
    .innerJoin(clubs, eq(clubs.id, members.club_id))
    .leftJoin(tiers, eq(tiers.id, members.tier_id))
    .leftJoin(pendingTier, eq(pendingTier.id, members.pending_tier_id))
    .leftJoin(referrer, eq(referrer.id, members.referred_by_member_id));
}

type ItemRow = {
  m: Pick<MemberRow, keyof typeof ITEM_COLUMNS>;
  tier_name: string | null;
  pending_tier_name: string | null;
  ref_first: string | null;
  ref_last: string | null;
  /** The club's grace period in days (lib/members/status `statusOn`). */
  grace: number;
};

const ITEM_KEYS = Object.keys(ITEM_COLUMNS) as (keyof typeof ITEM_COLUMNS)[];
/** Each column's decoding of its stored value (0/1 to a boolean, JSON text to an object...), as Drizzle's. */
const DECODERS = ITEM_KEYS.map((k) => {
  const column = ITEM_COLUMNS[k];
  return (value: unknown) => column.mapFromDriverValue(value as never);
});
/**
 * A page row's item columns by name, decoded, from its values in ITEM_KEYS' order: one object
 * literal compiled once from ITEM_KEYS (each name a constant, the object's shape known from the
 * start): setting the 34 properties by names read from an array at run time made `pageItems`
 * cost about 60 % more (docs/benchmarks.md "search20"). A column that keeps the driver's value as it is
 * (text, most of them) is not decoded, as db/sqlite `compiledRows` does.
 */
const itemColumnsOf = new Function(
  "decode",
  `return (v) => ({ ${ITEM_KEYS.map((k, i) => {
    const asIs = ITEM_COLUMNS[k].mapFromDriverValue === Column.prototype.mapFromDriverValue;
    return `${JSON.stringify(k)}: ${asIs ? `v[${i}]` : `v[${i}] === null ? null : decode[${i}](v[${i}])`}`;
  }).join(", ")} });`,
)(DECODERS) as (values: unknown[]) => ItemRow["m"];

/**
 * A page's query: the item's columns of the members alone, read as arrays (`.values()`), with
 * no join: the names of tiers and referrers are looked up once per page (`pageItems`). The three
 * left joins cost a third of the page's query, and Drizzle's generic row mapping a quarter of its CPU.
 */
export function selectPage(q: Queryable) {
  return q.select({ ...ITEM_COLUMNS, referred_by_member_id: members.referred_by_member_id }).from(members);
}

/** What every item of a club's list shows from the club rather than the member. */
export type ListTerms = {
  /** The club's grace period (days), for each item's status. */
  grace: number;
  /** The club's tiers' names by id: a few rows, where a join looked two of them up again for each member. */
  tierNames: ReadonlyMap<string, string>;
};

/** The club's tiers' names by id. */
async function tierNamesOf(db: Db, clubId: string): Promise<Map<string, string>> {
  const rows = await db
    .prepareRead("members.page.tiers", (q) =>
      q
        .select({ id: tiers.id, name: tiers.name })
        .from(tiers)
        .where(eq(tiers.club_id, sql.placeholder("club"))),
    )
    .execute({ club: clubId });
  return new Map(rows.map((t) => [t.id, t.name]));
}

/**
 * The club's list terms, kept while its members version stands (lib/members/kept `keptTerms`):
 * a search's page, read each time, read two statements of them each time (docs/benchmarks.md
 * "Session 24"). `version`: the club's, read by the caller before (`membersVersion`).
 */
export function listTerms(db: Db, clubId: string, version?: number): Promise<ListTerms> {
  return keptTerms(db, clubId, async () => ({ grace: await clubGraceDays(db, clubId), tierNames: await tierNamesOf(db, clubId) }), version);
}

/**
 * The items of a page read by `selectPage(...).values()`, in its order, with their tier and
 * referrer names and their status under the club's `terms`. A tier the terms do not name (made
 * and given to a member after they were read) sends for the tiers' names again.
 */
export async function pageItems(db: Db, clubId: string, rows: unknown[][], today: string, terms: ListTerms): Promise<MemberAdminItem[]> {
  const n = ITEM_KEYS.length;
  const { grace } = terms;
  const tierAt = ITEM_KEYS.indexOf("tier_id");
  const pendingAt = ITEM_KEYS.indexOf("pending_tier_id");
  const unnamed = (id: unknown) => id !== null && !terms.tierNames.has(id as string);
  const tierName = rows.some((v) => unnamed(v[tierAt]) || unnamed(v[pendingAt])) ? await tierNamesOf(db, clubId) : terms.tierNames;
  const referrerIds = [...new Set(rows.map((v) => v[n] as string | null).filter((id): id is string => id !== null))];
  const referrers = new Map<string, { first_name: string; last_name: string }>();
  if (referrerIds.length) {
    const found = await db.read
      .select({ id: members.id, first_name: members.first_name, last_name: members.last_name })
      .from(members)
      .where(clubMembersIn(clubId, referrerIds));
    for (const r of found) referrers.set(r.id, r);
  }
  return rows.map((v) => {
    const m = itemColumnsOf(v);
    const referrer = v[n] === null ? undefined : referrers.get(v[n] as string);
    return toItem(
      {
        m,
        tier_name: m.tier_id === null ? null : (tierName.get(m.tier_id) ?? null),
        pending_tier_name: m.pending_tier_id === null ? null : (tierName.get(m.pending_tier_id) ?? null),
        ref_first: referrer?.first_name ?? null,
        ref_last: referrer?.last_name ?? null,
        grace,
      },
      today,
    );
  });
}

/**
 * The item of a member: built field by field from MemberAdminItem's own fields (an allow list), so
 * that no internal column (club_id, search_text, sort_name, pass_auth_token, pass_updated_at...)
 * ever leaves lib/, whatever the caller (HTTP strips by its response schema; MCP does not).
 */
export function toItem(r: ItemRow, today = todayUtc()): MemberAdminItem {
  const m = r.m;
  return {
    id: m.id,
    first_name: m.first_name,
    last_name: m.last_name,
    email: m.email,
    membership_start: m.membership_start,
    membership_end: m.membership_end,
    payment_status: m.payment_status as MemberAdminItem["payment_status"],
    status: statusOn(m, today, r.grace),
    referral_code: m.referral_code,
    pass_serial_number: m.pass_serial_number,
    has_wallet_a: m.has_wallet_a,
    has_wallet_b: m.has_wallet_b,
    has_web: m.has_web,
    payment_method: m.payment_method,
    tier_id: m.tier_id,
    tier_name: r.tier_name,
    pending_tier_id: m.pending_tier_id,
    pending_tier_name: r.pending_tier_name,
    pending_tier_change_at: m.pending_tier_change_at,
    is_manual: m.is_manual,
    payment_mode: m.payment_mode,
    invoice_company_name: m.invoice_company_name,
    referral_count: m.referral_count,
    referral_credit_cents: m.referral_credit_cents,
    acquisition_source: m.acquisition_source,
    referred_by_name: r.ref_first !== null ? `${r.ref_first} ${r.ref_last ?? ""}`.trim() : null,
    custom_fields: m.custom_fields,
    profile_complete: m.profile_complete,
    card_email_sent_at: m.card_email_sent_at,
    card_email_reminder_sent_at: m.card_email_reminder_sent_at,
    card_installed_at: m.card_installed_at,
    renewal_opt_out_at: m.renewal_opt_out_at,
    mailing_opt_out_at: m.mailing_opt_out_at,
    // A bounce of an address the member no longer has says nothing about the one they have.
    email_bounced: !!m.email_bounced_at && m.email_bounced_address?.toLowerCase() === m.email.toLowerCase(),
    // Only its hash is kept: the token is in the answer that creates the member, never read back.
    manage_token: null,
    erasure_requested_at: m.erasure_requested_at,
    application_status: m.application_status as MemberAdminItem["application_status"],
    created_at: m.created_at,
  } satisfies Record<keyof MemberAdminItem, unknown>;
}

/**
 * Locks the member's row until the transaction ends, before a change that reads it, decides,
 * then writes (a transition, a payment, an erasure): two such changes of one member, from any
 * connection, run one after the other, and a member erased meanwhile is not found.
 */
export async function lockMember(t: Queryable, memberId: string): Promise<void> {
  await lockRows(t, members, members.id, memberId);
}

/**
 * The member of the club, or 404 (another club's id is unknown here: nothing leaks). `naming`:
 * read to write a row that names the member, inside that row's transaction (`namingRead`).
 */
export async function getMemberRow(q: Queryable, clubId: string, memberId: string, naming = false): Promise<MemberRow> {
  const read = q
    .select()
    .from(members)
    .where(and(eq(members.club_id, clubId), eq(members.id, memberId)))
    .limit(1);
  const [row] = await (naming ? namingRead(read) : read);
  if (!row) throw new NotFound("MEMBER_NOT_FOUND");
  return row;
}

// One member's item, read after nearly every write to a member (its answer, its webhook's copy)
// and by GET: a statement kept prepared (`prepareRead`; inside a transaction, on its connection).
// Built anew, PostgreSQL planned its five tables at every call: 1.1 ms of its CPU per member added
// under the bench's load, more than the insert (docs/decisions.md, session 16).
const itemStatement = (db: Db) =>
  db.prepareRead("members.item", (q) =>
    selectItems(q)
      .where(and(eq(members.club_id, sql.placeholder("club")), eq(members.id, sql.placeholder("id"))))
      .limit(1),
  );

/**
 * The member `memberId` of the club as an item (404 MEMBER_NOT_FOUND). `db`: the database, or
 * inside a transaction `withinTx(db, t)`, so that the answer shows the transaction's writes.
 */
export async function getMemberItem(db: Db, clubId: string, memberId: string): Promise<MemberAdminItem> {
  const [row] = (await itemStatement(db).execute({ club: clubId, id: memberId })) as ItemRow[];
  if (!row) throw new NotFound("MEMBER_NOT_FOUND");
  return toItem(row);
}

export type HistoryEntry = {
  memberId: string;
  action: string;
  from?: Pick<MemberRow, "payment_status" | "membership_end"> | null;
  to: Pick<MemberRow, "payment_status" | "membership_end">;
  reason?: string | null;
  details?: Record<string, unknown>;
};

/** Who writes a history row: an admin (a Ctx: its admin and key), or the member from their page (`byMember`). */
export type HistoryAuthor = { clubId: string; actor: { adminId: string | null; keyPrefix: string | null }; byMember?: boolean };

/** The author of what a member does on their own page (DESIGN.md section 14: `actor: member`). */
export const memberAuthor = (clubId: string): HistoryAuthor => ({ clubId, actor: { adminId: null, keyPrefix: null }, byMember: true });

/** The member_history row of a transition (an import writes them in batches). */
export function historyRow(ctx: HistoryAuthor, entry: HistoryEntry, now = nowIso()): typeof memberHistory.$inferInsert {
  return {
    id: newId(),
    club_id: ctx.clubId,
    member_id: entry.memberId,
    action: entry.action,
    from_status: entry.from?.payment_status ?? null,
    to_status: entry.to.payment_status,
    from_end: entry.from?.membership_end ?? null,
    to_end: entry.to.membership_end,
    reason: entry.reason ?? null,
    admin_id: ctx.actor.adminId,
    key_prefix: ctx.actor.keyPrefix,
    details: entry.details ?? null,
    created_at: now,
    actor: ctx.byMember ? "member" : null,
  };
}

/** The history row of a transition, written in the transition's own transaction `t` (of `db`). */
export async function writeHistory(db: Db, t: Queryable, ctx: HistoryAuthor, entry: HistoryEntry) {
  // Sent with the statement after it on PostgreSQL (a round trip less): its answer is never read.
  await insertRowAhead(db, t, memberHistory, "member_history", historyRow(ctx, entry));
}

type StatusOf = Pick<MemberRow, "id" | "payment_status" | "membership_end">;

/**
 * The webhooks of a member's change (DESIGN.md section 15), inside its transaction:
 * `member.created` (no `before`), else `member.updated` and, when the derived status moved,
 * `member.status_changed` with `previous_status`. `item` (the member as the API shows it) is
 * read only when an endpoint wants it.
 */
export async function emitMemberChange(out: Emitter, before: StatusOf | null, after: StatusOf, item: () => Promise<MemberAdminItem>): Promise<void> {
  let read: Promise<MemberAdminItem> | undefined;
  const once = () => {
    read ??= item();
    return read;
  };
  if (!before) return out.emit("member.created", once);
  await out.emit("member.updated", once);
  const today = todayUtc();
  const previous = derivedStatus(before, today);
  if (previous !== derivedStatus(after, today)) await out.emit("member.status_changed", async () => ({ ...(await once()), previous_status: previous }));
}
