// Members written straight into the database, in any state, for the members tests.
import { eq, inArray } from "drizzle-orm";
import { clubs, jobs, memberHistory, members, payments, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { newMemberRow } from "../lib/members";
import { fanOut, WEBHOOK_DELIVERY, WEBHOOK_FANOUT } from "../lib/webhooks/emit";
import { manageTokenHash, newManageToken, searchTextOf, sortNameOf } from "../lib/members/internal";
import { addDays, todayUtc } from "./members-dates";
import type { TestEnv } from "./helpers";

export { addDays, todayUtc };

export type Seed = Partial<typeof members.$inferInsert> & { first_name?: string; last_name?: string; email?: string };

/** The page token of each seeded member (its row keeps only the hash). */
const pageTokens = new WeakMap<object, string>();

/** The token of a seeded member's page (/m/<token>): what a mail would have carried. */
export function pageTokenOf(m: object): string {
  const token = pageTokens.get(m);
  if (!token) throw new Error("not a member seedMember made");
  return token;
}

/**
 * A member row as `over` says, as the database holds it: `manage_token` is the hash of its page
 * token, which pageTokenOf gives (`over.manage_token`, when given, is that token).
 */
export async function seedMember(env: TestEnv, over: Seed = {}, clubId = env.clubId) {
  const today = todayUtc();
  const page = over.manage_token ?? newManageToken().token;
  const base = newMemberRow(clubId, {
    first_name: over.first_name ?? "Anna",
    last_name: over.last_name ?? "Muster",
    email: over.email ?? `m-${crypto.randomUUID()}@test.org`,
    membership_start: over.membership_start ?? today,
    membership_end: over.membership_end ?? addDays(today, 300),
    payment_status: over.payment_status ?? "paid",
    page_token: page,
  });
  const values = { ...base, ...over, manage_token: manageTokenHash(page) };
  const [row] = await env.db.tx((t) =>
    t
      .insert(members)
      .values({ ...values, search_text: searchTextOf(values as never), sort_name: sortNameOf(values) })
      .returning(),
  );
  pageTokens.set(row, page);
  return row;
}

export async function memberRow(env: TestEnv, id: string) {
  return (await env.db.read.select().from(members).where(eq(members.id, id)))[0];
}

export async function historyOf(env: TestEnv, id: string) {
  return env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, id));
}

export async function paymentsOf(env: TestEnv, id: string) {
  return env.db.read.select().from(payments).where(eq(payments.member_id, id));
}

/** The club's custom field definitions, written straight into the database. */
export async function setCustomFields(env: TestEnv, fields: Record<string, unknown>[]) {
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ custom_fields_schema: fields } as never)
      .where(eq(clubs.id, env.clubId)),
  );
}

/** POST .../members/import with `body` as a text/csv file (`qs`: the query, with its `?`). */
export function importFile(env: TestEnv, body: BodyInit, qs = "") {
  return env.call("POST", `/api/clubs/${env.clubId}/members/import${qs}`, { rawBody: body, headers: { "content-type": "text/csv" } });
}

/** Runs `fn` with a webhook endpoint of the club listening to `events`, then forgets it and its deliveries; `sent()` lists what it was sent. */
export async function withEndpoint<T>(
  env: TestEnv,
  events: string[],
  fn: (sent: () => Promise<{ type: string; payload: string }[]>) => Promise<T>,
): Promise<T> {
  const now = new Date().toISOString();
  const endpoint = {
    id: crypto.randomUUID(),
    club_id: env.clubId,
    url: "https://hooks.example.org/in",
    events,
    secret: "whsec_dGVzdA==",
    enabled: true,
    created_at: now,
    updated_at: now,
  };
  await env.db.tx((t) => t.insert(webhookEndpoints).values(endpoint));
  try {
    // The events the change queued, fanned out to their deliveries as the worker would.
    return await fn(async () => {
      await fanOut(env.db, env.clubId);
      return env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpoint.id));
    });
  } finally {
    await env.db.tx(async (t) => {
      await t.delete(jobs).where(inArray(jobs.kind, [WEBHOOK_DELIVERY, WEBHOOK_FANOUT]));
      await t.delete(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpoint.id));
      await t.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    });
  }
}
