// Members: the list, manual creation and the transitions of DESIGN.md section 6. Each
// transition runs in ONE transaction with its member_history row (and its payments row for
// mark-paid); each refusal is a 409 thrown before anything is written.
import { and, asc, count, desc, eq, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { type Db, insertRow, type Queryable, rowsAsArrays, withinTx } from "../../db";
import { lockNames } from "../../db/locks";
import { members } from "../../db/schema";
import { indexedMatches, membersOfClubMatching, type ScanOrder, type SearchWay, searchMatch, searchTextHolds, searchWay } from "../../db/search";
import { verb } from "../context";
import { memberPassChanged, queuePassUpdate, walletUrls } from "../passes";
import { type ClubSettings, clubSettings } from "../clubs/internal";
import type { Ctx } from "../context";
import { Conflict, type Invalid, NotFound, ValidationFailed } from "../errors";
import { cancelAtPeriodEnd } from "../stripe";
import { newId, nowIso } from "../ids";
import { getTierRow } from "../tiers/internal";
import { type Emitter, emitter } from "../webhooks/emit";
import { originOf, type PaymentOrigin, recordPayment } from "../payments/record";
import {
  addMonths,
  foldText,
  freeReferralCode,
  getMemberItem,
  getMemberRow,
  isStorableDay,
  listTerms,
  pageItems,
  LAST_DAY,
  type MemberRow,
  manageTokenHash,
  newManageToken,
  newPassSerial,
  unknownPageToken,
  newReferralCode,
  normalizeEmail,
  paymentStatusChange,
  periodEnd,
  searchTextOf,
  sortNameOf,
  selectPage,
  toItem,
  writeHistory,
  emitMemberChange,
  lockMember,
  lockMemberEmail,
  memberLockNames,
} from "./internal";
import {
  type ExtendRequest,
  type ManualMemberCreate,
  type MarkPaidRequest,
  type MemberAdminItem,
  type MemberListQuery,
  MemberListQuery as MemberListQuerySchema,
  type MemberListResponse,
  type MemberStatus,
  type MemberUpdate,
  type ReasonRequest,
  STATUSES,
} from "./schemas";
import { statusDay, statusOn, statusSql, statusWhere, todayUtc } from "./status";
import { creditReferrer } from "./referral";
import { creditSpent, memberDues } from "./dues";
import { countMembershipPromo } from "./promo-use";
import { keptPage, keptSearch, keptTotal, membersVersion } from "./kept";
import { largeAnswer } from "../reply";
import { addInvoicePayment, lockInvoice, oldestOpenMembershipInvoice } from "../invoices/pay";

/**
 * The count and page queries of one shape of the list (status filter, search or not, sort, dir),
 * built once and kept prepared (Db.prepareRead): on a page of 50, building the query with its
 * three joins cost more than running it. Values come as placeholders.
 */
type ListShape = ReturnType<typeof MemberListQuerySchema.parse>;

/**
 * How a search scanning the club's members meets them in each sort's order (db/search
 * `ScanOrder`): the registration and name orders have an index that carries the search text
 * (db/schema.ts), each member tested there; email and membership end have an index without it
 * (the id that breaks ties is sorted within equal keys), each member's row read; in each the scan
 * stops once its page is full. The status sort reads every member.
 */
const SCAN_ORDER: Record<ListShape["sort"], ScanOrder> = {
  registered: "covered",
  name: "covered",
  email: "indexed",
  membership_end: "indexed",
  status: "none",
};

function listQueries(
  db: Db,
  status: ListShape["status"],
  /** Whether a search filters the list, and the way its matches are read (db/search `searchWay`). */
  searching: false | SearchWay,
  sort: ListShape["sort"],
  direction: ListShape["dir"],
  erasure: ListShape["erasure_requested"],
  application: ListShape["application_status"],
) {
  const name = `members.list:${status}:${searching}:${sort}:${direction}:${erasure ?? ""}:${application ?? ""}`;
  // Built only the first time a shape is asked for (the callbacks of prepareRead).
  const p = (placeholder: string) => sql.placeholder(placeholder);
  const cond = () => {
    const where: SQL[] = [searching === "index" ? membersOfClubMatching(p("club"), p("match")) : eq(members.club_id, p("club"))];
    // `day`: today less the club's grace period (lib/members/status `statusDay`).
    if (status !== "all") where.push(statusWhere(status, p("day")));
    if (erasure === "true") where.push(isNotNull(members.erasure_requested_at));
    if (erasure === "false") where.push(isNull(members.erasure_requested_at));
    if (application) where.push(eq(members.application_status, application));
    if (searching) where.push(searchTextHolds(db, p("term"), p("search")));
    return and(...where);
  };
  const order = () => {
    const dir = direction === "asc" ? asc : desc;
    const by = {
      registered: () => [dir(members.created_at)],
      name: () => [dir(members.sort_name)],
      email: () => [dir(members.email)],
      membership_end: () => [dir(members.membership_end)],
      status: () => [dir(statusSql(p("day")))],
    }[sort]();
    return [...by, dir(members.id)];
  };
  return {
    cond,
    count: db.prepareRead(`${name}:count`, (q) => q.select({ total: count() }).from(members).where(cond())),
    page: db.prepareRead(`${name}:page`, (q) =>
      selectPage(q)
        .where(cond())
        .orderBy(...order())
        .limit(p("limit"))
        .offset(p("offset")),
    ),
  };
}

/**
 * A page of the club's members, filtered by derived status and search, sorted per DESIGN.md
 * section 6. A page without a search is kept (lib/members/kept `keptPage`) while the club's
 * members version and the day stand: asked again, it is answered without reading it again. A
 * search's count is kept the same way (`keptSearch`); its page is read each time.
 */
export const listMembers = verb("members:view", async function listMembers(ctx: Ctx, input: MemberListQuery): Promise<MemberListResponse> {
  return membersPage(ctx, input);
});

/** How a search reads its count and its page (db/search `searchWay`). */
export type SearchWays = { count: SearchWay; page: SearchWay };

/**
 * listMembers' answer, without its scope check: for listMembers alone, and for the tests that
 * force `ways` (each way must give the same answer).
 */
export async function membersPage(ctx: Ctx, input: MemberListQuery, ways?: SearchWays): Promise<MemberListResponse> {
  const q = MemberListQuerySchema.parse(input);
  const limit = q.limit ?? q.page_size ?? 50;
  const today = todayUtc();
  const search = q.search ? foldText(q.search.trim()) : "";
  const filter = `${q.status}:${q.erasure_requested ?? ""}:${q.application_status ?? ""}`;
  const read = async (version?: number): Promise<MemberListResponse> => {
    const terms = await listTerms(ctx.db, ctx.clubId, version);
    const day = statusDay(today, terms.grace);
    const statusDayKey = q.status === "all" ? "" : day;
    const values = {
      club: ctx.clubId,
      day,
      term: search,
      search: `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      match: searchMatch(search),
      limit,
      offset: (q.page - 1) * limit,
    };
    const queriesOf = (searching: false | SearchWay) => listQueries(ctx.db, q.status, searching, q.sort, q.dir, q.erasure_requested, q.application_status);
    let total: number;
    let page: ReturnType<typeof queriesOf>["page"];
    if (search) {
      // The count of a search is kept (by term and filter) while the club's members and the status
      // day stand, with what chose its way: the pages of a search, and a search asked again, count once.
      const count = async () => {
        const matches = await indexedMatches(ctx.db, search);
        // The club's size weighs the ways only where there is an index to choose.
        const members = matches === null ? 0 : await keptTotal(ctx.db, ctx.clubId, "all::", "", queriesOf(false).cond);
        const way = ways?.count ?? searchWay({ matches, members });
        return { total: (await queriesOf(way).count.execute(values))[0].total, matches, members };
      };
      // A forced way is counted as asked, never kept.
      const counted = ways ? await count() : await keptSearch(ctx.db, ctx.clubId, `${filter}:${search}`, statusDayKey, count, version);
      total = counted.total;
      // The count known, a page past the last match reads nothing, and the last page's scan stops
      // at the last match rather than at the club's last member.
      values.limit = Math.min(limit, total - values.offset);
      if (values.limit <= 0) return { total, page: q.page, limit, items: [] };
      const way = ways?.page ?? searchWay({ ...counted, wanted: values.offset + values.limit, order: SCAN_ORDER[q.sort] });
      page = queriesOf(way).page;
    } else {
      // The count of a filter is kept while the club's members and the status day (today less the
      // grace period) stay the same.
      const queries = queriesOf(false);
      total = await keptTotal(ctx.db, ctx.clubId, filter, statusDayKey, queries.cond);
      page = queries.page;
    }
    const rows = await rowsAsArrays(page, values);
    return { total, page: q.page, limit, items: await pageItems(ctx.db, ctx.clubId, rows, today, terms) };
  };
  // A search's page is read each time, and sent as one piece as a kept page is (lib/reply); the
  // club's version read once for its kept count and terms.
  if (search) return largeAnswer(await read(await membersVersion(ctx.db, ctx.clubId)));
  return keptPage(ctx.db, ctx.clubId, `${filter}:${q.sort}:${q.dir}:${limit}:${q.page}`, today, read);
}

/**
 * The club's members counted by derived status as of `day` (lib/members/status `statusDay`), and
 * all of them: the list's own kept totals (lib/members/kept), so the overview and the stats
 * count through the status index once per members version and day, and share those counts with
 * the list's filters. One pass summing a CASE per status read every member's row instead (40 ms
 * for 10,000 members).
 */
export async function countByStatus(db: Db, clubId: string, day: string): Promise<Record<"all" | MemberStatus, number>> {
  const out = { all: 0, active: 0, expired: 0, pending: 0, suspended: 0 };
  for (const status of ["all", ...STATUSES] as const) {
    out[status] = await keptTotal(
      db,
      clubId,
      `${status}::`,
      status === "all" ? "" : day,
      listQueries(db, status, false, "registered", "desc", undefined, undefined).cond,
    );
  }
  return out;
}

/**
 * The one check of a member's email in its transaction: refuses an email that is already another
 * member's of the club (409 MEMBER_EMAIL_TAKEN; unique per club), holding the club's lock shared
 * and the email's own (lockMemberEmail's names) until the transaction ends, so that two
 * transactions adding or moving to one email, from any connection, check one after the other.
 * With `code` (a referral code just drawn), that code's lock is taken in the same statement and
 * the same select says whether a member of the club has it (answered: taken).
 */
async function checkEmail(db: Db, t: Queryable, clubId: string, email: string, o: { exceptId?: string; code?: string } = {}): Promise<boolean> {
  await lockNames(t, [
    { name: memberLockNames.club(clubId), shared: true },
    { name: memberLockNames.email(clubId, email) },
    ...(o.code === undefined ? [] : [{ name: memberLockNames.referral(clubId, o.code) }]),
  ]);
  const found: { id: string; email: string }[] =
    o.code === undefined
      ? await emailHolders(db)(t).execute({ club: clubId, email })
      : await emailOrCodeHolders(db)(t).execute({ club: clubId, email, code: o.code });
  if (found.some((m) => m.email === email && m.id !== o.exceptId)) throw new Conflict("MEMBER_EMAIL_TAKEN", { email });
  return found.some((m) => m.email !== email);
}

// Kept prepared, as every member added or moved to another email runs one (PostgreSQL planned
// them at each call otherwise).
const holders = (db: Db, name: string, by: (p: typeof sql.placeholder) => SQL | undefined) =>
  db.prepareTx(name, (q) =>
    q
      .select({ id: members.id, email: members.email })
      .from(members)
      .where(and(eq(members.club_id, sql.placeholder("club")), by(sql.placeholder)))
      .limit(2),
  );
const emailHolders = (db: Db) => holders(db, "members.email-holders", (p) => eq(members.email, p("email")));
const emailOrCodeHolders = (db: Db) =>
  holders(db, "members.email-or-code-holders", (p) => or(eq(members.email, p("email")), eq(members.referral_code, p("code"))));

/** Raised inside a transaction when an email is already another member's (`checkEmail`). */
export async function assertEmailFree(db: Db, t: Queryable, clubId: string, email: string, exceptId?: string): Promise<void> {
  await checkEmail(db, t, clubId, email, { exceptId });
}

/**
 * For a member about to be added with `email` (normalized), in its transaction: `checkEmail`, and
 * a referral code no member of the club has, locked as freeReferralCode locks one. On PostgreSQL
 * the three locks are one statement and both checks one select (six statements before). A code
 * found taken (rare: 25^8 codes) is drawn again by freeReferralCode.
 */
export async function newMemberCode(db: Db, t: Queryable, clubId: string, email: string): Promise<string> {
  const code = newReferralCode();
  return (await checkEmail(db, t, clubId, email, { code })) ? await freeReferralCode(t, clubId) : code;
}

/** Fields of a new member row (serial and token drawn fresh; the referral code too unless given). */
export function newMemberRow(
  clubId: string,
  input: {
    first_name: string;
    last_name: string;
    email: string;
    membership_start: string;
    membership_end: string;
    payment_status: string;
    payment_method?: string | null;
    tier_id?: string | null;
    custom_fields?: Record<string, unknown> | null;
    created_at?: string;
    /** Drawn here when not given; inside a transaction give `freeReferralCode(t, clubId)`. */
    referral_code?: string;
    /** The page token the caller shows or mails (newManageToken); none: a page nobody can open, until a mail makes a token (unknownPageToken). */
    page_token?: string;
  },
): typeof members.$inferInsert {
  const now = nowIso();
  const { page_token, ...fields } = input;
  const referral_code = input.referral_code ?? newReferralCode();
  const base = { ...fields, first_name: input.first_name.trim(), last_name: input.last_name.trim(), email: normalizeEmail(input.email), referral_code };
  return {
    id: newId(),
    club_id: clubId,
    ...base,
    payment_method: input.payment_method ?? null,
    tier_id: input.tier_id ?? null,
    custom_fields: input.custom_fields ?? null,
    pass_serial_number: newPassSerial(),
    manage_token: page_token ? manageTokenHash(page_token) : unknownPageToken(),
    is_manual: true,
    search_text: searchTextOf(base),
    sort_name: sortNameOf(base),
    created_at: input.created_at ?? now,
    updated_at: now,
  };
}

/**
 * Adds a member by hand: `paid`, `is_manual`, starting today, ending as given; no payment row.
 * 422 MEMBERSHIP_END_BEFORE_START for an end before today; 409 MEMBER_EMAIL_TAKEN on a duplicate email in the club; 404 TIER_NOT_FOUND for another club's tier.
 */
export const addMember = verb("members:edit", async function addMember(ctx: Ctx, input: ManualMemberCreate) {
  const today = todayUtc();
  // The membership starts today: an end before it would store a period that ends before it starts.
  if (input.membership_end < today) {
    throw new ValidationFailed([{ loc: ["body", "membership_end"], code: "MEMBERSHIP_END_BEFORE_START", params: { start: today, end: input.membership_end } }]);
  }
  const page = newManageToken();
  const item = await ctx.db.tx(async (t) => {
    const tier = input.tier_id ? await getTierRow(t, ctx.clubId, input.tier_id) : null;
    const email = normalizeEmail(input.email);
    const referral_code = await newMemberCode(ctx.db, t, ctx.clubId, email);
    const row = newMemberRow(ctx.clubId, {
      ...input,
      page_token: page.token,
      referral_code,
      email,
      membership_start: today,
      payment_status: "paid",
      created_at: input.joined_at ? `${input.joined_at}T00:00:00.000Z` : undefined,
    });
    // The club's endpoints, asked before the insert and awaited after it: on PostgreSQL the read
    // leaves with the insert (a round trip less). Should the insert fail, nobody awaits it.
    const out = emitter(ctx.db, t, ctx.clubId);
    out.catch(() => {});
    const created = (await insertRow(ctx.db, t, members, "members", row, true)) as MemberRow;
    await writeHistory(ctx.db, t, ctx, { memberId: created.id, action: "manual_create", to: created, details: { joined_at: input.joined_at ?? null } });
    // The item (the answer, and what a webhook sends) is the row just written as the API shows it
    // (toItem), not read back: one statement fewer, a round trip on PostgreSQL. A new member has
    // no pending tier and no referrer, and is paid from today to an end not before today: active
    // whatever the club's grace period (which only keeps an ended membership active longer), so
    // the grace period is not read either.
    const made = toItem({ m: created, tier_name: tier?.name ?? null, pending_tier_name: null, ref_first: null, ref_last: null, grace: 0 }, today);
    await emitMemberChange(await out, null, created, async () => made);
    return made;
  });
  // The page's token, this once (the row keeps its hash): a webhook's copy of the member never has it.
  return { ...item, manage_token: page.token, wallet_urls: walletUrls(ctx, item.pass_serial_number) };
});

type Change = Partial<typeof members.$inferInsert>;

/**
 * One transition: reads the member in the transaction, lets `decide` refuse (throw) or return the
 * change, writes it with its history row (and whatever `also` adds), answers the updated member.
 */
async function transition(
  ctx: Ctx,
  memberId: string,
  action: string,
  reason: string | null | undefined,
  decide: (
    m: MemberRow,
    t: Queryable,
  ) => Promise<{
    set: Change;
    details?: Record<string, unknown>;
    also?: (m: MemberRow, out: Emitter) => Promise<void>;
    action?: string;
    /** The body field that set `membership_end`, named by its refusal when that end is too late. */
    endFrom?: string;
  } | null>,
  options: { emails?: boolean } = {},
): Promise<MemberAdminItem> {
  // The answer is read in the same transaction: it shows this transition's result, never that of
  // a concurrent one committed in the same group.
  return ctx.db.tx(async (t) => {
    // The club's email lock before the member's row, as an import takes them (no deadlock).
    if (options.emails) await lockMemberEmail(t, ctx.clubId);
    await lockMember(t, memberId);
    const before = await getMemberRow(t, ctx.clubId, memberId);
    const decided = await decide(before, t);
    // Nothing to change (an update sending the stored values): no write, no history row.
    if (!decided) return getMemberItem(withinTx(ctx.db, t), ctx.clubId, memberId);
    const { set, details, also } = decided;
    const kind = decided.action ?? action;
    // Extending a membership that already ends near the year 9999 would leave the date format.
    if (set.membership_end !== undefined && !isStorableDay(set.membership_end)) {
      throw new ValidationFailed([
        { loc: ["body", ...(decided.endFrom ? [decided.endFrom] : [])], code: "MEMBERSHIP_END_TOO_LATE", params: { max: LAST_DAY } },
      ]);
    }
    const [after] = await t
      .update(members)
      .set({ ...set, updated_at: nowIso() })
      .where(and(eq(members.club_id, ctx.clubId), eq(members.id, memberId)))
      .returning();
    await writeHistory(ctx.db, t, ctx, { memberId, action: kind, from: before, to: after, reason, details });
    if (memberPassChanged(before, after)) await queuePassUpdate(t, ctx.clubId, [memberId], kind);
    const out = await emitter(ctx.db, t, ctx.clubId);
    if (also) await also(after, out);
    const item = await getMemberItem(withinTx(ctx.db, t), ctx.clubId, memberId);
    await emitMemberChange(out, before, after, async () => item);
    return item;
  });
}

/** The member's period (months) and currency: its tier's, else the club's (`club` when already read). */
async function memberTerms(t: Queryable, ctx: Ctx, m: MemberRow, club?: ClubSettings): Promise<{ months: number; currency: string }> {
  const tier = m.tier_id ? await getTierRow(t, ctx.clubId, m.tier_id).catch(() => null) : null;
  if (tier) return { months: tier.duration_months, currency: tier.currency };
  const c = club ?? (await clubSettings(t, ctx.clubId));
  return { months: c.membership_duration_months, currency: c.currency };
}

/**
 * Extends the membership: to `extend_until` (later than the current end, else 422), by
 * `extend_months` (added to the end, or to today when expired), or by one period of the tier,
 * else of the club. The stored payment status does not change.
 */
export const extendMembership = verb("members:edit", async function extendMembership(ctx: Ctx, input: ExtendRequest & { member_id: string }) {
  return transition(ctx, input.member_id, "extend", input.reason, async (m, t) => {
    if (input.extend_until && input.extend_months) throw new ValidationFailed([{ loc: ["body", "extend_months"], code: "EXTEND_ONE_OF" }]);
    if (input.extend_until) {
      if (input.extend_until <= m.membership_end) {
        throw new ValidationFailed([{ loc: ["body", "extend_until"], code: "EXTEND_NOT_LATER", params: { end: m.membership_end } }]);
      }
      return { set: { membership_end: input.extend_until } };
    }
    const months = input.extend_months ?? (await memberTerms(t, ctx, m)).months;
    const today = todayUtc();
    const end = m.membership_end < today ? periodEnd(today, months) : addMonths(m.membership_end, months);
    return { set: { membership_end: end }, details: { months }, endFrom: input.extend_months ? "extend_months" : undefined };
  });
});

/**
 * The Stripe customer and subscription a provider's payment comes with (the Stripe webhook,
 * lib/stripe-events): a subscription puts the member on automatic renewal.
 */
export type ProviderBilling = { customer_id?: string | null; subscription_id?: string | null };

/**
 * Records a payment (lib/payments/record: the row, its receipt, `payment.recorded`) and renews:
 * `pending` or expired -> `paid` with a new period from today; active -> the period is renewed
 * from its end. The first payment after joining online clears what was owed, credits the
 * referrer and counts the promo code used; a renewal spends the referral credit the amount paid
 * left uncovered (lib/members/dues). 409 when suspended; 409 STATEMENT_LINE_ALREADY_RECORDED for
 * a statement line recorded before. `origin`: what the bank import or a provider adds (its fee and
 * payment id); `billing`: the provider's customer and subscription. The invoice `invoice_id` (a
 * statement line's), else the member's oldest open membership invoice if any, is paid with it
 * (409 INVOICE_CANCELLED / INVOICE_PAID when the one named cannot be).
 */
export const markMemberPaid = verb(
  "finances:edit",
  async function markMemberPaid(ctx: Ctx, input: MarkPaidRequest & { member_id: string } & PaymentOrigin & { billing?: ProviderBilling }) {
    return transition(ctx, input.member_id, "mark_paid", input.reason, async (m, t) => {
      if (m.payment_status === "suspended") throw new Conflict("MEMBER_SUSPENDED");
      const club = await clubSettings(t, ctx.clubId);
      const { months, currency } = await memberTerms(t, ctx, m, club);
      const today = todayUtc();
      const method = input.payment_method ?? "bank_transfer";
      // A member in the grace period is active: the new period follows on from the end, no gap.
      const active = statusOn(m, today, club.grace_period_days) === "active";
      const set: Change = active
        ? { membership_end: addMonths(m.membership_end, months), payment_method: method }
        : { ...paymentStatusChange(m, "paid"), membership_start: today, membership_end: periodEnd(today, months), payment_method: method };
      // What a member who joined online owed is paid now (lib/members/referral credits who referred them).
      if (m.amount_due_cents !== null) set.amount_due_cents = null;
      const billing = input.billing;
      if (billing?.customer_id) set.stripe_customer_id = billing.customer_id;
      if (billing?.subscription_id)
        Object.assign(set, { payment_mode: "subscription", stripe_subscription_id: billing.subscription_id, renewal_opt_out_at: null });
      const spent = creditSpent(await memberDues(t, m), input.amount_cents);
      if (spent > 0) set.referral_credit_cents = m.referral_credit_cents - spent;
      const paymentId = newId();
      return {
        set,
        details: {
          amount_cents: input.amount_cents,
          payment_method: method,
          payment_id: paymentId,
          months,
          ...(spent ? { referral_credit_spent_cents: spent } : {}),
        },
        also: async () => {
          if (m.amount_due_cents !== null) {
            await creditReferrer(ctx.db, t, m);
            await countMembershipPromo(t, { clubId: ctx.clubId, memberId: m.id, now: nowIso() });
          }
          // The invoice the payment names (a statement line's), else the member's oldest open
          // membership invoice: paid with this payment, the membership renewed once, here.
          const invoice = input.invoice_id ? await lockInvoice(t, ctx.clubId, input.invoice_id) : await oldestOpenMembershipInvoice(t, ctx.clubId, m.id);
          const payment = { id: paymentId, memberId: m.id, amount: input.amount_cents, currency, method, reason: input.reason };
          await recordMembershipPayment(t, ctx, { ...input, invoice_id: invoice?.id ?? null }, payment);
          if (invoice) await addInvoicePayment(t, ctx, invoice, input.amount_cents, { settle: true });
        },
      };
    });
  },
);

/** A membership payment (negative: a refund) by `ctx`'s caller, through the one place payments are recorded, with its origin. */
const recordMembershipPayment = (
  t: Queryable,
  ctx: Ctx,
  origin: PaymentOrigin,
  p: { id: string; memberId: string; amount: number; currency: string; method: string; reason?: string | null },
) => recordPayment(t, ctx, { ...originOf(origin), ...p, clubId: ctx.clubId, kind: "membership", adminId: ctx.actor.adminId });

/**
 * A refund the payment provider made of a member's payment (Stripe `charge.refunded`): a negative
 * payment (lib/payments/record: with its refund note) naming the provider's payment, and a history
 * row. The membership does not change: the admin decides what a refund means (suspend, correct
 * the end).
 */
export const recordMemberRefund = verb(
  "finances:edit",
  async function recordMemberRefund(
    ctx: Ctx,
    input: { member_id: string; amount_cents: number; currency: string; method: string; reason: string | null } & PaymentOrigin,
  ) {
    return transition(ctx, input.member_id, "refund", input.reason, async (m, t) => {
      const paymentId = newId();
      return {
        set: {},
        details: { amount_cents: -input.amount_cents, payment_method: input.method, payment_id: paymentId },
        also: async () => {
          const refund = { id: paymentId, memberId: m.id, amount: -input.amount_cents, currency: input.currency, method: input.method, reason: input.reason };
          await recordMembershipPayment(t, ctx, input, refund);
        },
      };
    });
  },
);

/**
 * The member's automatic renewal has ended at the provider (Stripe `customer.subscription.deleted`):
 * back to `one_time`, the opt-out dated if it was not; the member stays active until the end of
 * what they paid. Nothing when `subscription_id` is not the member's (an older one).
 */
export const endSubscription = verb("finances:edit", async function endSubscription(ctx: Ctx, input: { member_id: string; subscription_id: string }) {
  return transition(ctx, input.member_id, "subscription_ended", null, async (m) => {
    if (m.stripe_subscription_id !== input.subscription_id) return null;
    return { set: { payment_mode: "one_time", stripe_subscription_id: null, renewal_opt_out_at: m.renewal_opt_out_at ?? nowIso() } };
  });
});

/** `paid`/`pending` -> `suspended` (the card stops verifying); already suspended -> 409. */
export const suspendMember = verb("members:edit", async function suspendMember(ctx: Ctx, input: ReasonRequest & { member_id: string }) {
  return transition(ctx, input.member_id, "suspend", input.reason, async (m) => {
    if (m.payment_status === "suspended") throw new Conflict("MEMBER_ALREADY_SUSPENDED");
    return { set: paymentStatusChange(m, "suspended") };
  });
});

/** `suspended` -> the stored status it had before; not suspended -> 409. */
export const reactivateMember = verb("members:edit", async function reactivateMember(ctx: Ctx, input: ReasonRequest & { member_id: string }) {
  return transition(ctx, input.member_id, "reactivate", input.reason, async (m) => {
    if (m.payment_status !== "suspended") throw new Conflict("MEMBER_NOT_SUSPENDED");
    return { set: paymentStatusChange(m) };
  });
});

/**
 * Stops the automatic renewal: only for `payment_mode` `subscription` without
 * `renewal_opt_out_at` (else 409). The member stays active until the end of the paid period. The
 * state is checked and written under the member's lock first; a Stripe subscription is then
 * cancelled at Stripe, at the end of its period. When Stripe refuses (502) or its keys are gone
 * (503 STRIPE_KEYS_MISSING), the renewal is turned back on (a history row and `member.updated`
 * say so), unless something else changed it meanwhile: the member is left renewing, as Stripe is.
 */
export const cancelSubscription = verb("finances:edit", async function cancelSubscription(ctx: Ctx, input: ReasonRequest & { member_id: string }) {
  let told: { subscription: string; at: string } | null = null;
  const item = await transition(ctx, input.member_id, "cancel_subscription", input.reason, async (m) => {
    if (m.payment_mode !== "subscription" || m.renewal_opt_out_at) throw new Conflict("NO_ACTIVE_SUBSCRIPTION");
    const at = nowIso();
    if (m.stripe_subscription_id) told = { subscription: m.stripe_subscription_id, at };
    return { set: { renewal_opt_out_at: at } };
  });
  if (!told) return item;
  const { subscription, at } = told;
  try {
    await cancelAtPeriodEnd(ctx.stripe, subscription, true);
  } catch (err) {
    // Outside the transaction (network): the cancellation Stripe did not take is undone here.
    await transition(ctx, input.member_id, "cancel_subscription_undone", null, async (m) =>
      m.renewal_opt_out_at === at && m.stripe_subscription_id === subscription ? { set: { renewal_opt_out_at: null } } : null,
    );
    throw err;
  }
  return item;
});

/** The member of the club (404 MEMBER_NOT_FOUND for an unknown id or another club's). */
export const getMember = verb("members:view", async function getMember(ctx: Ctx, input: { member_id: string }): Promise<MemberAdminItem> {
  return getMemberItem(ctx.db, ctx.clubId, input.member_id);
});

/** The fields of MemberUpdate stored as sent (names and email are normalised, custom fields merged). */
const PLAIN_FIELDS = ["tier_id", "payment_method", "invoice_company_name", "acquisition_source", "membership_end"] as const;

/** RFC 7396 at the top level: keys sent replace, keys sent as null go, the rest stays; null clears all. */
function mergeCustomFields(stored: Record<string, unknown> | null, sent: Record<string, unknown> | null): Record<string, unknown> | null {
  if (sent === null) return null;
  const merged: Record<string, unknown> = { ...(stored ?? {}) };
  for (const [k, v] of Object.entries(sent)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  return Object.keys(merged).length ? merged : null;
}

/**
 * Corrects the member's data: only the fields sent change, and only those that differ are
 * written (none: no history row). One history row: `correction` when membership_end changes
 * (which needs a reason, 422 REASON_REQUIRED; not before membership_start, 422), else `update`;
 * it names the changed fields, not their values (those are personal data, erased with the
 * member). 409 MEMBER_EMAIL_TAKEN for another member's email; 422 TIER_NOT_FOUND for a tier
 * that is not the club's. A change the card shows queues a pass update.
 */
export const updateMember = verb("members:edit", async function updateMember(ctx: Ctx, input: MemberUpdate & { member_id: string }) {
  return transition(
    ctx,
    input.member_id,
    "update",
    input.reason,
    async (m, t) => {
      const want: Change = {};
      if (input.first_name !== undefined) want.first_name = input.first_name.trim();
      if (input.last_name !== undefined) want.last_name = input.last_name.trim();
      if (input.email !== undefined) want.email = normalizeEmail(input.email);
      for (const f of PLAIN_FIELDS) if (input[f] !== undefined) Object.assign(want, { [f]: input[f] });
      if (input.custom_fields !== undefined) want.custom_fields = mergeCustomFields(m.custom_fields, input.custom_fields);
      const set = Object.fromEntries(
        Object.entries(want).filter(([k, v]) => JSON.stringify(v ?? null) !== JSON.stringify(m[k as keyof MemberRow] ?? null)),
      ) as Change;
      const fields = Object.keys(set);
      if (!fields.length) return null;
      const invalid: Invalid[] = [];
      if (set.membership_end !== undefined) {
        if (set.membership_end < m.membership_start) {
          invalid.push({
            loc: ["body", "membership_end"],
            code: "MEMBERSHIP_END_BEFORE_START",
            params: { start: m.membership_start, end: set.membership_end },
          });
        }
        if (!input.reason?.trim()) invalid.push({ loc: ["body", "reason"], code: "REASON_REQUIRED" });
      }
      if (set.tier_id) {
        const tier = await getTierRow(t, ctx.clubId, set.tier_id).catch((err) => {
          if (err instanceof NotFound) return null;
          throw err;
        });
        if (!tier) invalid.push({ loc: ["body", "tier_id"], code: "TIER_NOT_FOUND" });
      }
      if (invalid.length) throw new ValidationFailed(invalid);
      if (set.email !== undefined) await assertEmailFree(ctx.db, t, ctx.clubId, set.email, m.id);
      if (set.first_name !== undefined || set.last_name !== undefined || set.email !== undefined) {
        const names = {
          first_name: set.first_name ?? m.first_name,
          last_name: set.last_name ?? m.last_name,
          email: set.email ?? m.email,
          referral_code: m.referral_code,
        };
        Object.assign(set, { search_text: searchTextOf(names), sort_name: sortNameOf(names) });
      }
      return { set, action: set.membership_end !== undefined ? "correction" : "update", details: { fields } };
    },
    { emails: input.email !== undefined },
  );
});
