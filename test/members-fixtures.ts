// Members written straight into the database, in any state, for the members tests.
import { eq } from "drizzle-orm";
import { clubs, memberHistory, members, payments } from "../db/schema";
import { newMemberRow } from "../lib/members";
import { searchTextOf, sortNameOf } from "../lib/members/internal";
import { addDays, todayUtc } from "./members-dates";
import type { TestEnv } from "./helpers";

export { addDays, todayUtc };

export type Seed = Partial<typeof members.$inferInsert> & { first_name?: string; last_name?: string; email?: string };

export async function seedMember(env: TestEnv, over: Seed = {}, clubId = env.clubId) {
  const today = todayUtc();
  const base = newMemberRow(clubId, {
    first_name: over.first_name ?? "Anna",
    last_name: over.last_name ?? "Muster",
    email: over.email ?? `m-${crypto.randomUUID()}@test.org`,
    membership_start: over.membership_start ?? today,
    membership_end: over.membership_end ?? addDays(today, 300),
    payment_status: over.payment_status ?? "paid",
  });
  const [row] = await env.db.tx((t) =>
    t
      .insert(members)
      .values({ ...base, ...over, search_text: searchTextOf({ ...base, ...over } as never), sort_name: sortNameOf({ ...base, ...over }) })
      .returning(),
  );
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
