// A statement of many rows (Db.prepareRows) writes what Drizzle's own prepared statement of
// those rows writes (the import's statements before): on SQLite it is Drizzle's statement of one
// row repeated (db/sqlite.ts manyRows), its values encoded by their columns as Drizzle fills a
// placeholder (booleans, JSON; a JSON column's null is the text `null` either way), the
// defaults Drizzle binds for columns a row leaves out, a value after the rows' (the club of an
// update's WHERE) in its place, an `on conflict` clause said once after the rows.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { rowSlot, slotRows, slotValues } from "../../db";
import { members, tiers } from "../../db/schema";
import { newMemberRow } from "../../lib/members";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

function people(tag: string) {
  return [
    { custom_fields: { badge: 7, note: "é" }, payment_method: "cash" },
    { custom_fields: null, payment_method: null },
    { custom_fields: { badge: null }, payment_method: "sepa" },
  ].map((extra, i) => ({
    ...newMemberRow(env.clubId, {
      first_name: `Anna${i}`,
      last_name: "Rows",
      email: `${tag}-${i}@rows.test`,
      membership_start: "2026-01-01",
      membership_end: "2026-12-31",
      payment_status: "paid",
    }),
    ...extra,
  }));
}

/** The rows as stored, without what is each row's own (keys, codes, tokens). */
async function stored(emails: string[]) {
  const rows = await env.db.read
    .select()
    .from(members)
    .where(and(eq(members.club_id, env.clubId), inArray(members.email, emails)))
    .orderBy(members.first_name);
  const nulls = await env.db.query<{ n: number }>(
    `select count(*) as n from members where custom_fields is null and email in (${emails.map((_, i) => (env.db.engine === "postgres" ? `$${i + 1}` : "?")).join(", ")})`,
    emails,
  );
  const own = ["id", "email", "referral_code", "pass_serial_number", "manage_token", "search_text", "sort_name", "created_at", "updated_at"];
  return { rows: rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !own.includes(k)))), nulls: Number(nulls[0].n) };
}

it("inserts what Drizzle's prepared statement of those rows inserts", async () => {
  const mine = people("many");
  const theirs = people("plain");
  const columns = Object.keys(mine[0]);
  const values = slotValues(columns, mine);
  await env.db.tx(async (t) => {
    await env.db
      .prepareRows("test.rows.insert", 3, columns.length, (q, n) => q.insert(members).values(slotRows(columns, n)))(t)
      .run(values);
    await env.db
      .prepareTx("test.rows.drizzle", (q) => q.insert(members).values(slotRows(columns, 3)))(t)
      .execute(slotValues(columns, theirs) as never);
  });
  const a = await stored(mine.map((r) => r.email));
  const b = await stored(theirs.map((r) => r.email));
  expect(a.rows).toHaveLength(3);
  expect(a).toEqual(b);
  expect(a.rows.map((r) => r.custom_fields)).toEqual([{ badge: 7, note: "é" }, null, { badge: null }]);
  // Three rows' worth of values and no more: a wrong count is refused, nothing written.
  const refused = await env.db
    .tx(async (t) => {
      await env.db
        .prepareRows("test.rows.insert", 3, columns.length, (q, n) => q.insert(members).values(slotRows(columns, n)))(t)
        .run(values.slice(1));
    })
    .then(
      () => null,
      (err: Error) => err,
    );
  expect(refused).toBeInstanceOf(Error);
});

it("updates from a list of rows with a value after the rows' (the club)", async () => {
  const rows = people("listed");
  await env.db.tx(async (t) => {
    await t.insert(members).values(rows);
  });
  const columns = ["id", "first_name", "custom_fields", "payment_method"];
  const width = columns.length;
  const update = (n: number) =>
    env.db.prepareRows("test.rows.update", n, width, (q, rowsIn) => {
      const selects = Array.from(
        { length: rowsIn },
        (_, i) =>
          sql`select ${sql.join(
            columns.map((c, j) => sql`${sql.param(rowSlot(i, j, width), (members as unknown as Record<string, never>)[c])} as ${sql.identifier(c)}`),
            sql`, `,
          )}`,
      );
      return q
        .update(members)
        .set({ first_name: sql`v.first_name`, custom_fields: sql`v.custom_fields`, payment_method: sql`v.payment_method` } as never)
        .from(sql`(${sql.join(selects, sql` union all `)}) as ${sql.identifier("v")}`)
        .where(and(eq(members.club_id, rowSlot(rowsIn, 0, width)), sql`${members.id} = ${sql.identifier("v")}.${sql.identifier("id")}`));
    });
  const changed = [
    [rows[0].id, "Bea", { badge: 1 }, null],
    [rows[2].id, "Cleo", null, "card"],
  ];
  await env.db.tx(async (t) => update(2)(t).run([...changed.flat(), env.clubId]));
  // Another club's id after the rows: nothing of this club changes.
  await env.db.tx(async (t) => update(2)(t).run([...changed.flatMap(([id]) => [id, "Nobody", null, null]), "another-club"]));
  const after = await env.db.read
    .select({ first_name: members.first_name, custom_fields: members.custom_fields, payment_method: members.payment_method })
    .from(members)
    .where(
      inArray(
        members.email,
        rows.map((r) => r.email),
      ),
    )
    .orderBy(members.email);
  expect(after).toEqual([
    { first_name: "Bea", custom_fields: { badge: 1 }, payment_method: null },
    { first_name: "Anna1", custom_fields: null, payment_method: null },
    { first_name: "Cleo", custom_fields: null, payment_method: "card" },
  ]);
});

it("inserts with `on conflict do nothing` after the last row: new rows written, a row already there left as it is", async () => {
  const columns = ["id", "club_id", "name", "price_cents", "currency", "duration_months", "created_at", "updated_at"];
  const at = "2026-12-01T00:00:00.000Z";
  const tier = (id: string, name: string) => ({
    id,
    club_id: env.clubId,
    name,
    price_cents: 1000,
    currency: "CHF",
    duration_months: 12,
    created_at: at,
    updated_at: at,
  });
  const insert = (n: number) =>
    env.db.prepareRows("test.rows.conflict", n, columns.length, (q, rows) => q.insert(tiers).values(slotRows(columns, rows)).onConflictDoNothing());
  await env.db.tx(async (t) => insert(2)(t).run(slotValues(columns, [tier("rows-t1", "First"), tier("rows-t2", "Second")])));
  // Twice the statement of two rows: it is kept, and an id already there is skipped, not refused.
  await env.db.tx(async (t) => insert(2)(t).run(slotValues(columns, [tier("rows-t2", "Second again"), tier("rows-t3", "Third")])));
  const rows = await env.db.read
    .select({ id: tiers.id, name: tiers.name })
    .from(tiers)
    .where(inArray(tiers.id, ["rows-t1", "rows-t2", "rows-t3"]))
    .orderBy(tiers.id);
  expect(rows).toEqual([
    { id: "rows-t1", name: "First" },
    { id: "rows-t2", name: "Second" },
    { id: "rows-t3", name: "Third" },
  ]);
});
