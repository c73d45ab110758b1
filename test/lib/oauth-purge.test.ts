// The daily purge of OAuth codes and tokens (lib/oauth/grants purgeExpiredOAuth): what ended more
// than a day ago goes; live tokens, spent refresh tokens still within their life, and grants stay.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { oauthCodes, oauthGrants, oauthTokens } from "../../db/schema";
import { newId } from "../../lib/ids";
import { purgeExpiredOAuth } from "../../lib/oauth/grants";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

test("removes codes and tokens ended more than a day ago, keeps the rest and the grant", async () => {
  const now = new Date("2026-06-01T12:00:00Z");
  const at = (hours: number) => new Date(now.getTime() + hours * 3600_000).toISOString();
  const grantId = newId();
  await env.db.tx(async (t) => {
    await t.insert(oauthGrants).values({
      id: grantId,
      club_id: env.clubId,
      admin_id: env.adminId,
      client_id: "c",
      client_name: "c",
      scopes: {},
      resource: "http://localhost/mcp",
      created_at: at(-100),
    });
    const token = (name: string, kind: string, expires: number, rotated: string | null = null) =>
      t.insert(oauthTokens).values({ id: name, grant_id: grantId, kind, token_hash: name, expires_at: at(expires), rotated_at: rotated, created_at: at(-100) });
    await token("old-access", "access", -25);
    await token("old-refresh", "refresh", -48);
    await token("live-access", "access", 1);
    await token("spent-refresh-still-in-life", "refresh", 24 * 20, at(-2));
    await token("just-ended", "access", -1);
    const code = {
      club_id: env.clubId,
      admin_id: env.adminId,
      client_id: "c",
      client_name: "c",
      scopes: {},
      resource: "r",
      redirect_uri: "u",
      code_challenge: "x",
    };
    await t.insert(oauthCodes).values({ ...code, id: "old-code", code_hash: "old-code", expires_at: at(-30), created_at: at(-30) });
    await t.insert(oauthCodes).values({ ...code, id: "new-code", code_hash: "new-code", expires_at: at(0.03), created_at: at(0) });
  });
  expect(await purgeExpiredOAuth(env.db, now)).toBe(3);
  const left = (await env.db.read.select({ id: oauthTokens.id }).from(oauthTokens).where(eq(oauthTokens.grant_id, grantId))).map((r) => r.id).sort();
  expect(left).toEqual(["just-ended", "live-access", "spent-refresh-still-in-life"]);
  expect((await env.db.read.select({ id: oauthCodes.id }).from(oauthCodes)).map((r) => r.id)).toEqual(["new-code"]);
  expect(await env.db.read.select().from(oauthGrants).where(eq(oauthGrants.id, grantId))).toHaveLength(1);
});
