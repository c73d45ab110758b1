// A kept select (Db.prepareRead, Db.prepareTx) answers the rows Drizzle's own select answers: on
// SQLite its rows are made by a reader built once (db/sqlite.ts compiledRows), with the same
// decoders (booleans, JSON, nested objects), a left join's missing table as null.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { admins, apiKeys, clubs } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

it("answers the same rows as Drizzle's select: every column decoded, nested objects, none found", async () => {
  const { db } = env;
  await db.tx(async (t) => {
    await t
      .update(clubs)
      .set({ card_back_fields: [{ field: "email" }] })
      .where(eq(clubs.id, env.clubId));
  });
  const club = db.prepareRead("test.club", (q) =>
    q
      .select()
      .from(clubs)
      .where(eq(clubs.id, sql.placeholder("id")))
      .limit(1),
  );
  const [kept] = await club.execute({ id: env.clubId });
  const [plain] = await db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
  expect(kept).toEqual(plain);
  expect(Object.keys(kept)).toEqual(Object.keys(plain));
  expect(await club.execute({ id: "none" })).toEqual([]);
  // Nested objects and an SQL field with its own decoder; inside a transaction too.
  const nested = (await db.tx(async (t) =>
    db
      .prepareTx("test.admin", (q) =>
        q
          .select({ admin: { id: admins.id, read_only: admins.read_only }, n: sql<number>`1 + 1`.mapWith(Number), on: sql`'x'`.mapWith((v) => `${v}!`) })
          .from(admins)
          .where(eq(admins.club_id, sql.placeholder("club")))
          .limit(1),
      )(t)
      .execute({ club: env.clubId }),
  )) as { admin: { id: string; read_only: boolean }; n: number; on: string }[];
  expect(nested).toEqual([{ admin: { id: expect.any(String), read_only: false }, n: 2, on: "x!" }]);
  // An inner join, a left join that finds its row, and one that finds nothing: its table's object
  // is null, as Drizzle makes it.
  const joined = (join: "inner" | "left" | "left-none") =>
    db
      .prepareRead(`test.${join}`, (q) => {
        const select = q.select({ key: { id: apiKeys.id }, admin: { read_only: admins.read_only, email: admins.email } }).from(apiKeys);
        const on = eq(admins.id, apiKeys.admin_id);
        return (join === "inner" ? select.innerJoin(admins, on) : select.leftJoin(admins, join === "left" ? on : and(on, eq(admins.email, "none"))))
          .where(eq(apiKeys.club_id, sql.placeholder("club")))
          .limit(1);
      })
      .execute({ club: env.clubId });
  const found = [{ key: { id: expect.any(String) }, admin: { read_only: false, email: expect.stringContaining("@") } }];
  expect(await joined("inner")).toEqual(found);
  expect(await joined("left")).toEqual(found);
  expect(await joined("left-none")).toEqual([{ key: { id: expect.any(String) }, admin: null }]);
});
