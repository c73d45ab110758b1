// Names are text (issue 18 item 5): CR/LF, NUL, tab and direction overrides (U+202E) in a name or
// any single-line field are a 422 naming the field, and nothing is stored; multi-line fields
// (descriptions, reasons) keep line breaks but refuse the other controls and the overrides; the
// import reports such a cell as a line error.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, eventRegistrations, events, members, promoCodes, tiers } from "../../db/schema";
import { isOneLine, isPlainText } from "../../lib/schema-types";
import { createEventVia } from "../events-fixtures";
import { importFile } from "../members-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const BAD = {
  "CR/LF": "Jean\r\nBcc: x@evil.test",
  LF: "Jean\nDupont",
  NUL: "Jean\u0000",
  "U+202E": "Jean\u202Egnp.exe",
  tab: "Jean\tDupont",
  "U+2066": "\u2066Jean",
};
const club = (path = "") => `/api/clubs/${env.clubId}${path}`;
const rows = async (table: typeof members | typeof tiers | typeof events | typeof promoCodes | typeof eventRegistrations) =>
  JSON.stringify(await env.db.read.select().from(table));

function expectRefused(res: { status: number; body: any }, loc: (string | number)[]) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe("VALIDATION_FAILED");
  expect(res.body.detail).toContainEqual({ loc, msg: expect.stringContaining("U+202E"), type: "text_control_character" });
}

describe("one-line and multi-line text", () => {
  it("one line refuses every control character and direction override; multi-line keeps \\n, \\r, \\t only", () => {
    for (const value of Object.values(BAD)) expect(isOneLine(value)).toBe(false);
    for (const ok of ["Émilie Durand", "محمد\u200F", "Łukasz Żółć", "O'Brien-Smith"]) expect(isOneLine(ok)).toBe(true);
    expect(isPlainText("Line one\r\nLine two\tend")).toBe(true);
    for (const bad of ["a\u0000", "a\u202E", "a\u0007", "a\u2028", "a\u0085"]) expect(isPlainText(bad)).toBe(false);
  });
});

describe.each(Object.entries(BAD))("%s", (_label, value) => {
  it("manual member: first_name, last_name, email refused (422 naming the field), nothing stored", async () => {
    const before = await rows(members);
    for (const field of ["first_name", "last_name"]) {
      const body = { first_name: "Ana", last_name: "Silva", email: "ana@test.org", membership_end: "2031-01-01", [field]: value };
      expectRefused(await env.call("POST", club("/members/manual"), { body }), ["body", field]);
    }
    const email = await env.call("POST", club("/members/manual"), {
      body: { first_name: "Ana", last_name: "Silva", email: `ana${value}@test.org`, membership_end: "2031-01-01" },
    });
    expect(email.status).toBe(422);
    expect(email.body.detail.every((d: { loc: unknown }) => JSON.stringify(d.loc) === JSON.stringify(["body", "email"]))).toBe(true);
    expect(await rows(members)).toBe(before);
  });

  it("club: name, city and the card link refused; nothing stored", async () => {
    const [before] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expectRefused(await env.call("PUT", club(), { body: { name: value } }), ["body", "name"]);
    expectRefused(await env.call("PUT", club(), { body: { city: value, description: "ok" } }), ["body", "city"]);
    expectRefused(await env.call("PUT", club(), { body: { card_custom_link_url: `https://example.org/${value}` } }), ["body", "card_custom_link_url"]);
    const [after] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect(after).toEqual(before);
  });

  it("tier name, promo code, event title, location and ticket name refused; nothing stored", async () => {
    const before = [await rows(tiers), await rows(promoCodes), await rows(events)];
    expectRefused(await env.call("POST", club("/tiers"), { body: { name: value, price_cents: 100 } }), ["body", "name"]);
    expectRefused(await env.call("POST", club("/promo-codes"), { body: { code: `CODE${value}`, discount_type: "percent", discount_value: 5 } }), [
      "body",
      "code",
    ]);
    const event = { title: "Soirée", starts_at: "2031-01-01T18:00:00Z" };
    expectRefused(await env.call("POST", club("/events"), { body: { ...event, title: value } }), ["body", "title"]);
    expectRefused(await env.call("POST", club("/events"), { body: { ...event, location_name: value } }), ["body", "location_name"]);
    expectRefused(await env.call("POST", club("/events"), { body: { ...event, tickets: [{ name: value }] } }), ["body", "tickets", 0, "name"]);
    expect([await rows(tiers), await rows(promoCodes), await rows(events)]).toEqual(before);
  });

  it("public registration: first_name and last_name refused; nothing stored", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "Entrée", non_member_price_cents: 0 }] });
    const before = await rows(eventRegistrations);
    for (const field of ["first_name", "last_name"]) {
      const body = { ticket_id: e.tickets[0].id, first_name: "Ana", last_name: "Silva", email: "ana@test.org", [field]: value };
      expectRefused(await env.call("POST", `/api/public/events/${e.id}/registrations`, { key: null, body }), ["body", field]);
    }
    expect(await rows(eventRegistrations)).toBe(before);
  });

  it("import: the cell is a line error and no member is made", async () => {
    const before = await rows(members);
    const res = await importFile(
      env,
      `first_name,last_name,email,membership_end\nAna,Silva,ana.import@test.org,2031-01-01\n"${value}",Silva,jean@test.org,2031-01-01\n`,
    );
    expect(res.status).toBe(200);
    expect(res.body.written).toBe(false);
    expect(res.body.errors).toEqual([{ line: 3, detail: expect.stringContaining("first_name") }]);
    expect(await rows(members)).toBe(before);
  });
});

describe("multi-line fields", () => {
  it("an event description and a tier description keep their line breaks", async () => {
    const e = await createEventVia(env, { description: "Programme :\r\n- apéritif\n- repas\tà 19 h" });
    expect(e.description).toBe("Programme :\r\n- apéritif\n- repas\tà 19 h");
    const tier = await env.call("POST", club("/tiers"), { body: { name: "Famille", price_cents: 100, description: "Deux adultes\net les enfants" } });
    expect(tier.status).toBe(201);
  });

  it("refuse NUL and direction overrides in a description, a reason and the club's description", async () => {
    expectRefused(await env.call("POST", club("/events"), { body: { title: "T", starts_at: "2031-01-01T18:00:00Z", description: "a\u202Eb" } }), [
      "body",
      "description",
    ]);
    expectRefused(await env.call("PUT", club(), { body: { description: "a\u0000b" } }), ["body", "description"]);
    expectRefused(await env.call("POST", club("/tiers"), { body: { name: "T", price_cents: 1, description: "\u2067x" } }), ["body", "description"]);
  });
});
