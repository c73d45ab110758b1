// Members written straight into the database, in any state, for the members tests.
import { and, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../db";
import { clubs, jobs, memberHistory, memberImports, memberImportUndo, members, payments, webhookDeliveries, webhookEndpoints } from "../db/schema";
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

/** The member an import created with `email`, and its history row's id (what an undo row names). */
export async function importedMember(env: TestEnv, email: string) {
  const [m] = await env.db.read.select().from(members).where(eq(members.email, email));
  const [h] = await env.db.read
    .select()
    .from(memberHistory)
    .where(and(eq(memberHistory.member_id, m.id), eq(memberHistory.action, "import_create")));
  return { m, historyId: h.id };
}

/**
 * As a process that died mid-import leaves it: a running import of another machine whose lease
 * has lapsed, its one undo row saying it created `created` (recoverImports undoes it). `alongside`
 * writes more in the same transaction. Answers the import's id.
 */
export async function deadImport(
  env: TestEnv,
  created: { m: typeof members.$inferSelect; historyId: string }[],
  alongside?: (t: Queryable, now: string) => Promise<void>,
): Promise<string> {
  const importId = crypto.randomUUID();
  const now = new Date().toISOString();
  await env.db.tx(async (t) => {
    await t
      .insert(memberImports)
      .values({ id: importId, club_id: env.clubId, status: "running", host: "another-machine", pid: 1, started_at: now, lease_until: now });
    await t.insert(memberImportUndo).values({
      import_id: importId,
      member_id: created[0].m.id,
      history_id: created[0].historyId,
      written_at: created[0].m.updated_at,
      entries: created.map(({ m, historyId }) => [m.id, historyId, null]),
    });
    await alongside?.(t, now);
  });
  return importId;
}
