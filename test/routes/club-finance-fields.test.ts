// Finance fields by scope (issue 18 item 3): the payout, fee and accounting fields of the Club are
// shown only to callers with finances:view, on GET /api/clubs/<id>, GET /api/auth/me, the answer
// of PUT, and MCP's whoami, get_club and club resource. Absent, not null, for the others.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { AREAS, LEVELS, type Scopes } from "../../lib/access";
import { CLUB_FIELDS } from "../../lib/clubs/fields";
import { callTool, mcpClient } from "../mcp/client";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
  const res = await env.call("PUT", `/api/clubs/${env.clubId}`, {
    body: { payout_iban: "CH9300762011623852957", payout_bic: "POFICHBEXXX", accounting_journal: "J1" },
  });
  expect(res.status).toBe(200);
});
afterAll(() => env.close());

const SECRET = CLUB_FIELDS.filter((f) => f.readScope).map((f) => f.name);
const everyScope: Scopes[] = AREAS.flatMap((area) => LEVELS.map((level) => ({ [area]: level }) as Scopes));

function expectShown(club: Record<string, unknown>, shown: boolean) {
  for (const name of SECRET) expect([name, name in club]).toEqual([name, shown]);
  // What every reader keeps: the SPEC's required fields, the membership fee and its currency among them.
  expect(club.membership_fee_cents).toBe(0);
  expect(club.currency).toBe("CHF");
  expect(club.name).toBe("Club de test");
}

describe("finance fields of the Club, by scope", () => {
  it("are the payout, fee and accounting fields, and not the membership fee", () => {
    expect(SECRET).toContain("payout_iban");
    expect(SECRET).toContain("accounting_account_revenue");
    expect(SECRET).toContain("commission_rate_percent");
    expect(SECRET).not.toContain("membership_fee_cents");
    expect(SECRET).not.toContain("currency");
  });

  for (const scopes of everyScope) {
    const label = Object.entries(scopes)[0].join(":");
    const shown = scopes.finances !== undefined;
    it(`${label}: ${shown ? "shown" : "absent"} in GET club, GET me and MCP whoami/get_club/club resource`, async () => {
      const key = await env.makeKey(scopes);
      const club = await env.call("GET", `/api/clubs/${env.clubId}`, { key });
      expect(club.status).toBe(200);
      expectShown(club.body, shown);
      if (shown) expect(club.body.payout_iban).toBe("CH9300762011623852957");
      const me = await env.call("GET", "/api/auth/me", { key });
      expect(me.status).toBe(200);
      expectShown(me.body.club, shown);
      if (!shown) expect(club.text).not.toContain("CH9300762011623852957");

      const client = await mcpClient(env, key);
      try {
        const whoami = await callTool(client, "whoami");
        expectShown(whoami.body.club, shown);
        const getClub = await callTool(client, "get_club");
        expectShown(getClub.body, shown);
        const { contents } = await client.readResource({ uri: `club://${env.clubId}` });
        const text = (contents[0] as { text: string }).text;
        expectShown(JSON.parse(text), shown);
      } finally {
        await client.close();
      }
    });
  }

  it("page:edit and card:edit without finances: the PUT answer leaves them out, and a Club read and sent back is accepted", async () => {
    const key = await env.makeKey({ page: "edit", card: "edit" });
    const read = await env.call("GET", `/api/clubs/${env.clubId}`, { key });
    const { id, slug, created_at, updated_at, ...rest } = read.body;
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { key, body: { ...rest, membership_fee_cents: undefined, currency: undefined } });
    expect(res.status).toBe(200);
    expectShown(res.body, false);
    const owner = await env.call("GET", `/api/clubs/${env.clubId}`);
    expect(owner.body.payout_iban).toBe("CH9300762011623852957");
  });
});
