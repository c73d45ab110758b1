// The dashboard's promo codes page through app.handle: the list, adding a code (percent for some
// tiers, an amount for one event), editing its limits (PATCH), the API's refusal to change a used
// code's discount, deactivating it, and a read-only admin who sees no edit action.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { promoCodes } from "../../db/schema";
import { createEventVia, insertTier } from "../events-fixtures";
import { browser, type DashBrowser, type Env, ownerSignedIn } from "./helpers";

let env: Env;
let owner: DashBrowser;
beforeAll(async () => ({ env, owner } = await ownerSignedIn()));
afterAll(() => env.close());

const byCode = async (code: string) => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.code, code)))[0];
const NEW = "/admin/promo-codes/new";

describe("promo codes", () => {
  it("refuses an end before the start naming the form's labels, not the API's fields", async () => {
    const bad = await owner.post(
      NEW,
      { code: "ENVERS", discount_type: "percent", discount_value: "10", valid_from: "2031-06-30T10:00", valid_until: "2031-06-01T10:00" },
      NEW,
    );
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("« Valable jusqu&#x27;au » doit être postérieur à « Valable dès ».");
    expect(bad.text).not.toContain("valid_until »");
    expect(await byCode("ENVERS")).toBeUndefined();
  });

  it("adds a percent code for one tier and an amount code for one event, then lists both", async () => {
    const tier = await insertTier(env, { name: "Junior" });
    const event = await createEventVia(env, { title: "Soirée <promo>" });
    expect((await owner.post(NEW, { code: "JUNIOR10", discount_type: "percent", discount_value: "10", applies_to_tier_ids: tier.id }, NEW)).status).toBe(303);
    expect(await byCode("JUNIOR10")).toMatchObject({ discount_type: "percent", discount_value: 10, scope: "membership", applies_to_tier_ids: [tier.id] });
    const res = await owner.post(
      NEW,
      { code: "SOIREE5", discount_type: "amount", discount_value: "5,50", event_id: event.id, max_uses: "20", valid_until: "2031-06-30T23:00" },
      NEW,
    );
    expect(res.status).toBe(303);
    expect(await byCode("SOIREE5")).toMatchObject({
      discount_value: 550,
      scope: "event",
      event_id: event.id,
      max_uses: 20,
      // 23:00 on the club's wall clock, summer time in Europe/Zurich.
      valid_until: "2031-06-30T21:00:00.000Z",
    });
    const list = await owner.request("GET", "/admin/promo-codes?done=created");
    expect(list.text).toContain("Code ajouté.");
    expect(list.text).toContain("Adhésion · Junior");
    expect(list.text).toContain("Événement · Soirée &lt;promo&gt;");
    expect(list.text).toContain("0 / 20");
  });

  it("refuses a percent over 100 beside the field, and a code taken in another case (409)", async () => {
    const over = await owner.post(NEW, { code: "TOOMUCH", discount_type: "percent", discount_value: "150" }, NEW);
    expect(over.status).toBe(422);
    expect(over.text).toContain('id="f-discount_value-error"');
    const taken = await owner.post(NEW, { code: "junior10", discount_type: "percent", discount_value: "5" }, NEW);
    expect(taken.status).toBe(409);
    expect(taken.text).toContain('role="alert"');
    expect(await byCode("TOOMUCH")).toBeUndefined();
  });

  it("edits limits (an emptied one is cleared), deactivates and reactivates", async () => {
    const promo = await byCode("SOIREE5");
    const path = `/admin/promo-codes/${promo.id}`;
    const form = await owner.request("GET", path);
    expect(form.text).toContain('value="5.50"');
    expect(form.text).toContain('value="2031-06-30T23:00"');
    const saved = await owner.post(path, { code: "SOIREE6", discount_type: "amount", discount_value: "6", max_uses: "", valid_until: "" }, path);
    expect(saved.status).toBe(303);
    expect(await byCode("SOIREE6")).toMatchObject({ discount_value: 600, max_uses: null, valid_until: null });
    expect((await owner.post(`${path}/deactivate`, {}, path)).status).toBe(303);
    expect((await byCode("SOIREE6")).is_active).toBe(false);
    expect((await owner.request("GET", "/admin/promo-codes")).text).toContain("Désactivé");
    expect((await owner.post(`${path}/activate`, {}, path)).status).toBe(303);
    expect((await byCode("SOIREE6")).is_active).toBe(true);
  });

  it("hides a used code's discount fields, and the API refuses a change sent anyway (409)", async () => {
    const promo = await byCode("JUNIOR10");
    await env.db.tx((t) => t.update(promoCodes).set({ used_count: 2 }).where(eq(promoCodes.id, promo.id)));
    const path = `/admin/promo-codes/${promo.id}`;
    const form = await owner.request("GET", path);
    expect(form.text).toContain("Ce code a déjà servi");
    expect(form.text).not.toContain('name="discount_value"');
    expect((await owner.post(path, { max_uses: "10" }, path)).status).toBe(303);
    expect((await byCode("JUNIOR10")).max_uses).toBe(10);
    const refused = await owner.post(path, { code: "JUNIOR10", discount_type: "percent", discount_value: "50" }, path);
    expect(refused.status).toBe(409);
    expect((await byCode("JUNIOR10")).discount_value).toBe(10);
  });

  it("shows a read-only admin the codes without edit actions, and refuses their posts", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const promo = await byCode("JUNIOR10");
    const list = await viewer.request("GET", "/admin/promo-codes");
    expect(list.status).toBe(200);
    expect(list.text).toContain("JUNIOR10");
    expect(list.text).not.toContain(NEW);
    expect(list.text).not.toContain(`/admin/promo-codes/${promo.id}`);
    expect((await viewer.post(`/admin/promo-codes/${promo.id}/deactivate`, {}, "/admin/promo-codes")).status).toBe(403);
    expect((await byCode("JUNIOR10")).is_active).toBe(true);
  });
});
