// The CLI acts as the club's owner (its actions are recorded under the owner), not as whichever
// admin happens to be the oldest.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { admins } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

it("acts as the owner even when another admin is older, and as the oldest admin left once the owner is removed", async () => {
  const older = await env.makeAdmin({ email: "older@test.org" });
  await env.db.tx((t) => t.update(admins).set({ created_at: "2000-01-01T00:00:00.000Z" }).where(eq(admins.id, older.id)));
  expect((await operatorCtx(env.db, env.clubId, env.config)).actor.adminId).toBe(env.adminId);
  await env.db.tx((t) => t.update(admins).set({ removed_at: new Date().toISOString() }).where(eq(admins.id, env.adminId)));
  expect((await operatorCtx(env.db, env.clubId, env.config)).actor.adminId).toBe(older.id);
});
