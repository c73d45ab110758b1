// The dashboard's tiers page through app.handle: the list, adding and editing a tier (what the
// database then holds), archiving and restoring it, and a read-only admin who sees no edit
// action and is refused on a post.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { tiers } from "../../db/schema";
import { browser, type DashBrowser, type Env, ownerSignedIn } from "./helpers";

let env: Env;
let owner: DashBrowser;
beforeAll(async () => ({ env, owner } = await ownerSignedIn()));
afterAll(() => env.close());

const byName = async (name: string) => (await env.db.read.select().from(tiers).where(eq(tiers.name, name)))[0];

describe("tiers", () => {
  it("adds a tier with a price typed with a comma, then lists it", async () => {
    const res = await owner.post("/admin/tiers/new", { name: "Étudiant <b>", price: "30,50", duration_months: "12", sort_order: "1" }, "/admin/tiers/new");
    expect(res.status).toBe(303);
    const row = await byName("Étudiant <b>");
    expect(row).toMatchObject({ price_cents: 3050, duration_months: 12, sort_order: 1, is_active: true, currency: "CHF" });
    const page = await owner.request("GET", "/admin/tiers?done=created");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Catégorie ajoutée.");
    expect(page.text).toContain("Étudiant &lt;b&gt;");
    expect(page.text).toContain(`/admin/tiers/${row.id}`);
  });

  it("shows the schema's error beside the field (422) and writes nothing", async () => {
    const res = await owner.post("/admin/tiers/new", { name: "Sans prix", price: "abc" }, "/admin/tiers/new");
    expect(res.status).toBe(422);
    expect(res.text).toContain('id="f-price-error"');
    expect(res.text).toContain('value="Sans prix"');
    expect(await byName("Sans prix")).toBeUndefined();
  });

  it("says how to type an amount in the club's language, beside the price, not the schema's words", async () => {
    const res = await owner.post("/admin/tiers/new", { name: "Prix en lettres", price: "abc" }, "/admin/tiers/new");
    expect(res.status).toBe(422);
    expect(res.text).toContain('<p id="f-price-error" class="error-text">Saisissez un montant comme 50 ou 50.00.</p>');
    expect(res.text).not.toContain("nombre attendu");
    expect(await byName("Prix en lettres")).toBeUndefined();
  });

  it("reads amounts as Swiss people write them: 1'200.50, 1 200,50, 50.-, CHF 10; not 1.200", async () => {
    const typed = { Apostrophe: "1'200.50", Espace: "1 200,50", "Francs ronds": "50.-", "Avec la monnaie": "CHF 10", "Monnaie après": "10 chf" };
    for (const [name, price] of Object.entries(typed)) expect((await owner.post("/admin/tiers/new", { name, price }, "/admin/tiers/new")).status).toBe(303);
    const stored = await Promise.all(Object.keys(typed).map(async (name) => (await byName(name)).price_cents));
    expect(stored).toEqual([120050, 120050, 5000, 1000, 1000]);
    // A thousand, or one franc twenty? Not guessed.
    const ambiguous = await owner.post("/admin/tiers/new", { name: "Ambigu", price: "1.200" }, "/admin/tiers/new");
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.text).toContain("Saisissez un montant comme 50 ou 50.00.");
    expect(await byName("Ambigu")).toBeUndefined();
  });

  it("edits a tier, clears its description, archives and restores it", async () => {
    await owner.post("/admin/tiers/new", { name: "Famille", description: "Deux adultes", price: "80" }, "/admin/tiers/new");
    const tier = await byName("Famille");
    const path = `/admin/tiers/${tier.id}`;
    const form = await owner.request("GET", path);
    expect(form.text).toContain('value="80.00"');
    const saved = await owner.post(path, { name: "Famille+", description: "", price: "85", duration_months: "24", sort_order: "2" }, path);
    expect(saved.status).toBe(303);
    expect(await byName("Famille+")).toMatchObject({ price_cents: 8500, duration_months: 24, description: null });
    expect((await owner.post(`${path}/archive`, {}, path)).status).toBe(303);
    expect((await byName("Famille+")).is_active).toBe(false);
    const list = await owner.request("GET", "/admin/tiers");
    expect(list.text).toContain("Archivée");
    expect((await owner.post(`${path}/restore`, {}, path)).status).toBe(303);
    expect((await byName("Famille+")).is_active).toBe(true);
  });

  it("answers 404 for a tier of another club", async () => {
    const other = await env.otherClub();
    const res = await env.call("POST", `/api/clubs/${other.club_id}/tiers`, { key: other.api_key, body: { name: "Autre", price_cents: 100 } });
    expect((await owner.request("GET", `/admin/tiers/${res.body.id}`)).status).toBe(404);
    expect((await owner.post(`/admin/tiers/${res.body.id}/archive`, {}, "/admin/tiers")).status).toBe(404);
  });

  it("shows a read-only admin the list without edit actions, and refuses their posts", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const tier = await byName("Famille+");
    const list = await viewer.request("GET", "/admin/tiers");
    expect(list.status).toBe(200);
    expect(list.text).toContain("Famille+");
    expect(list.text).not.toContain("/admin/tiers/new");
    expect(list.text).not.toContain(`/admin/tiers/${tier.id}`);
    expect((await viewer.request("GET", `/admin/tiers/${tier.id}`)).status).toBe(403);
    expect((await viewer.post(`/admin/tiers/${tier.id}/archive`, {}, "/admin/tiers")).status).toBe(403);
    expect((await byName("Famille+")).is_active).toBe(true);
  });
});
