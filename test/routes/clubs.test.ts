// PUT /api/clubs/:club_id
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, jobs } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { authCases } from "../auth-cases";
import { setup, type TestEnv } from "../helpers";
import { JOB_KINDS } from "../../server/jobs";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const stored = async () => (await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId)))[0];
const put = (body: unknown, key?: string) => env.call("PUT", `/api/clubs/${env.clubId}`, { body, key });

describe("PUT /api/clubs/:club_id", () => {
  authCases(() => env, { method: "PUT", path: (e) => `/api/clubs/${e.clubId}`, body: { name: "X" }, scope: "page:edit" });

  it("changes the fields sent and nothing else", async () => {
    const before = await stored();
    const res = await put({ name: "Vélo Club Genève", description: "Sorties le dimanche", primary_color: "#112233" });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Vélo Club Genève");
    expect(res.body.primary_color).toBe("#112233");
    const after = await stored();
    expect(after.description).toBe("Sorties le dimanche");
    expect(after.secondary_color).toBe(before.secondary_color);
    expect(after.updated_at).not.toBe(before.updated_at);
  });

  it("ignores fields that are not writable (re-read from the database)", async () => {
    const before = await stored();
    const res = await put({
      id: crypto.randomUUID(),
      slug: "hacked",
      pricing_plan: "enterprise",
      payments_ready: true,
      commission_rate_percent: 0,
      logo_url: "https://evil",
      last_wallet_push_at: "2020-01-01T00:00:00Z",
      name: "Still ok",
    });
    expect(res.status).toBe(200);
    const after = await stored();
    expect(after.id).toBe(env.clubId);
    expect(after.slug).toBe(before.slug);
    expect(after.pricing_plan).toBe("free");
    expect(after.payments_ready).toBe(false);
    expect(after.commission_rate_percent).toBeNull();
    expect(after.logo_url).toBeNull();
    expect(after.last_wallet_push_at).toBe(before.last_wallet_push_at);
  });

  it("accepts name_order and payout_country, stores them, and does not show them in the Club", async () => {
    const res = await put({ name_order: "last_first", payout_country: "CH" });
    expect(res.status).toBe(200);
    expect("name_order" in res.body).toBe(false);
    const after = await stored();
    expect(after.name_order).toBe("last_first");
    expect(after.payout_country).toBe("CH");
  });

  it("null clears a nullable field and leaves a non-nullable one unchanged", async () => {
    await put({ description: "x", show_member_count: false });
    const res = await put({ description: null, show_member_count: null, name: null });
    expect(res.status).toBe(200);
    const after = await stored();
    expect(after.description).toBeNull();
    expect(after.show_member_count).toBe(false);
    expect(after.name).not.toBeNull();
  });

  it("reads a legacy `perk` card back field as text with is_perk", async () => {
    await env.db.tx((t) =>
      t
        .update(clubs)
        .set({ card_back_fields: [{ type: "perk", label: "10% chez Vélo Shop", value: "Montrez la carte" }] })
        .where(eq(clubs.id, env.clubId)),
    );
    const res = await env.call("GET", "/api/auth/me");
    expect(res.body.club.card_back_fields[0]).toMatchObject({ type: "text", is_perk: true, label: "10% chez Vélo Shop" });
  });

  it("rejects bad values with 422 detail items in the club's language, and changes nothing", async () => {
    const before = await stored();
    const res = await put({ name: "Changed?", primary_color: "red", contact_email: "nope", latitude: 200, card_back_fields: [{ type: "video" }] });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    const locs = res.body.detail.map((d: { loc: unknown[] }) => d.loc.join("."));
    expect(locs).toContain("body.primary_color");
    expect(locs).toContain("body.contact_email");
    expect(locs).toContain("body.latitude");
    expect(locs).toContain("body.card_back_fields.0.type");
    expect(res.body.detail.find((d: { loc: string[] }) => d.loc[1] === "primary_color").msg).toBe("Couleur attendue au format #RRVVBB.");
    expect((await stored()).name).toBe(before.name);
  });

  it("refuses a membership_mode or a currency it does not know (422 naming it) and stores neither", async () => {
    const before = await stored();
    const res = await put({ membership_mode: "bogus", currency: "ZZZ" });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: unknown[] }) => d.loc.join(".")).sort()).toEqual(["body.currency", "body.membership_mode"]);
    expect(res.body.detail.find((d: { loc: string[] }) => d.loc[1] === "currency").msg).toBe("Code de monnaie ISO 4217 attendu (CHF, EUR...).");
    const after = await stored();
    expect([after.membership_mode, after.currency]).toEqual([before.membership_mode, before.currency]);
    expect((await put({ membership_mode: "application", currency: "EUR" })).status).toBe(200);
  });

  it("refuses a link with a quote, an angle bracket or a space (the one URL rule the cards apply too), and stores nothing", async () => {
    for (const url of ['https://club.example/"onmouseover=alert(1)', "https://club.example/<b>", "https://club.example/a b", "javascript:alert(1)"]) {
      const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: url } });
      expect([res.status, res.body.detail?.[0]?.type]).toEqual([422, "invalid_url"]);
    }
    const [row] = await env.db.read.select({ url: clubs.card_custom_link_url }).from(clubs).where(eq(clubs.id, env.clubId));
    expect(row.url ?? "").not.toContain("club.example/");
  });

  it("answers in the club's locale once it changes", async () => {
    expect((await put({ locale: "de" })).status).toBe(200);
    const res = await put({ primary_color: "red" });
    expect(res.body.detail[0].msg).toBe("Farbe im Format #RRGGBB erwartet.");
    const en = await put({ locale: "en" });
    expect(en.status).toBe(200);
    expect((await put({ contact_email: "x" })).body.detail[0].msg).toMatch(/email/i);
    await put({ locale: "fr" });
  });

  it("needs card:edit for a card_* field and finances:edit for a fee or payout field", async () => {
    const pageOnly = await env.makeKey({ page: "edit" });
    expect((await put({ card_theme: "dark" }, pageOnly)).status).toBe(403);
    expect((await put({ payout_iban: "CH93 0076 2011 6238 5295 7" }, pageOnly)).status).toBe(403);
    expect((await put({ membership_fee_cents: 5000 }, pageOnly)).status).toBe(403);
    expect((await stored()).card_theme).toBe("default");
    expect((await put({ description: "page only is fine" }, pageOnly)).status).toBe(200);
    const pageCard = await env.makeKey({ page: "edit", card: "edit" });
    expect((await put({ card_theme: "dark" }, pageCard)).status).toBe(200);
  });

  it("refuses a view-only key with 403 before looking at its body", async () => {
    const view = await env.makeKey({ page: "view" });
    expect((await put({ primary_color: "bad" }, view)).status).toBe(403);
  });

  it("queues a wallet push when card_custom_link_url changes, and runs it in the background", async () => {
    const count = async () => (await env.db.read.select().from(jobs).where(eq(jobs.club_id, env.clubId))).length;
    const before = await count();
    const res = await put({ card_custom_link_url: "https://club.example/agenda", card_custom_link_label: "Agenda" });
    expect(res.status).toBe(200);
    expect(res.body.card_custom_link_updated_at).toBeString();
    expect(await count()).toBe(before + 1);
    // Same URL again: nothing to push.
    await put({ card_custom_link_url: "https://club.example/agenda" });
    expect(await count()).toBe(before + 1);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    const [job] = await env.db.read.select().from(jobs).where(eq(jobs.club_id, env.clubId));
    expect(job.status).toBe("done");
    expect((await stored()).last_wallet_push_at).toBeString();
  });
});
