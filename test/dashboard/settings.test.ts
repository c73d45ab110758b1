// The dashboard's club settings and card appearance pages through app.handle: what each group's
// form stores (read back from the database), the API's refusals shown beside the field, the card
// preview drawn by the web card with unsaved values, and a read-only admin's view and refusal.
import { describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, clubs } from "../../db/schema";
import { browser, withOwner } from "./helpers";

const t = withOwner();

const club = async () => (await t.env.db.read.select().from(clubs).where(eq(clubs.id, t.env.clubId)))[0];

describe("club settings", () => {
  it("shows every group with the club's values", async () => {
    const page = await t.owner.request("GET", "/admin/settings");
    expect(page.status).toBe(200);
    for (const heading of [
      "Identité et coordonnées",
      "Adhésion",
      "Rappels de renouvellement",
      "Cotisation et versements",
      "Finances et comptabilité",
      "Langue",
    ]) {
      expect(page.text).toContain(heading);
    }
    expect(page.text).toContain('value="Club de test"');
    expect(page.text).toContain('value="30, 7"');
  });

  it("saves a group through the API's verb: what the database holds", async () => {
    const res = await t.owner.post(
      "/admin/settings/membership",
      { membership_mode: "application", application_instructions: "Écrivez-nous.", membership_duration_months: "6" },
      "/admin/settings",
    );
    expect(res.status).toBe(303);
    const reminders = await t.owner.post("/admin/settings/reminders", { renewal_reminder_days: "7, 30, 1", grace_period_days: "10" }, "/admin/settings");
    expect(reminders.status).toBe(303);
    const payout = await t.owner.post(
      "/admin/settings/payout",
      { membership_fee_cents: "45,50", currency: "EUR", payout_iban: "CH93 0076 2011 6238 5295 7", payout_beneficiary_name: "Club" },
      "/admin/settings",
    );
    expect(payout.status).toBe(303);
    const row = await club();
    expect(row.membership_mode).toBe("application");
    expect(row.application_instructions).toBe("Écrivez-nous.");
    expect(row.membership_duration_months).toBe(6);
    expect(row.renewal_reminder_days).toEqual([30, 7, 1]);
    expect(row.grace_period_days).toBe(10);
    // The unticked box is false.
    expect(row.expiry_notice).toBe(false);
    expect(row.membership_fee_cents).toBe(4550);
    expect(row.currency).toBe("EUR");
    expect(row.payout_iban).toBe("CH93 0076 2011 6238 5295 7");
    const page = await t.owner.request("GET", res.headers.get("location")!.replace(/#.*/, ""));
    expect(page.text).toContain("Réglages enregistrés.");
  });

  it("refuses what the API refuses, beside the field, keeping what was typed", async () => {
    const before = await club();
    const res = await t.owner.post("/admin/settings/identity", { name: "", contact_email: "not-an-email", city: "Sion" }, "/admin/settings");
    expect(res.status).toBe(422);
    expect(res.text).toContain('id="f-contact_email-error"');
    expect(res.text).toContain('value="not-an-email"');
    expect((await club()).city).toBe(before.city);
    const days = await t.owner.post("/admin/settings/reminders", { renewal_reminder_days: "1,2,3,4,5,6", grace_period_days: "0" }, "/admin/settings");
    expect(days.status).toBe(422);
  });

  it("changes the club's language, and the dashboard follows", async () => {
    expect((await t.owner.post("/admin/settings/language", { locale: "en" }, "/admin/settings")).status).toBe(303);
    expect((await club()).locale).toBe("en");
    const page = await t.owner.request("GET", "/admin/settings");
    expect(page.text).toContain("Identity and contact");
    expect((await t.owner.post("/admin/settings/language", { locale: "fr" }, "/admin/settings")).status).toBe(303);
  });
});

describe("card appearance", () => {
  it("saves colours, link and back fields, keeping a back field's partner details", async () => {
    await t.env.call("PUT", `/api/clubs/${t.env.clubId}`, {
      body: { card_back_fields: [{ type: "text", label: "Café", value: "-10 %", is_perk: true, partner_address: "Rue 1" }] },
    });
    const res = await t.owner.post(
      "/admin/settings/card",
      {
        _form: "card",
        primary_color: "#112233",
        secondary_color: "#ffcc00",
        card_label_color: "#eeeeee",
        card_welcome_message: "Bienvenue !",
        card_custom_link_label: "Agenda",
        card_custom_link_url: "https://example.org/agenda",
        card_barcode_format: "qr",
        back_type_0: "text",
        back_label_0: "Café du coin",
        back_value_0: "-15 %",
        back_perk_0: "true",
        back_type_1: "link",
        back_label_1: "Site",
        back_value_1: "https://example.org",
      },
      "/admin/settings/card",
    );
    expect(res.status).toBe(303);
    const row = await club();
    expect(row.primary_color).toBe("#112233");
    expect(row.card_custom_link_url).toBe("https://example.org/agenda");
    expect(row.card_sharing_prohibited).toBe(false);
    expect(row.card_back_fields).toEqual([
      expect.objectContaining({ label: "Café du coin", value: "-15 %", is_perk: true, partner_address: "Rue 1" }),
      expect.objectContaining({ type: "link", label: "Site", is_perk: false }),
    ]);
  });

  it("refuses a link that is not http(s)", async () => {
    const res = await t.owner.post(
      "/admin/settings/card",
      { _form: "card", primary_color: "#112233", card_custom_link_url: "javascript:alert(1)" },
      "/admin/settings/card",
    );
    expect(res.status).toBe(422);
    expect(res.text).toContain('id="f-card_custom_link_url-error"');
    expect((await club()).card_custom_link_url).toBe("https://example.org/agenda");
  });

  it("previews unsaved values with the web card itself, in a frame of ours only", async () => {
    const page = await t.owner.request("GET", "/admin/settings/card");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<iframe src="/admin/settings/card/frame?');
    const fragment = await t.owner.request("GET", "/admin/settings/card/preview?primary_color=%23aa0000&card_welcome_message=Salut&_form=card", {
      headers: { "hx-request": "true" },
    });
    expect(fragment.text.startsWith("<iframe")).toBe(true);
    const frame = await t.owner.request(
      "GET",
      "/admin/settings/card/frame?primary_color=%23aa0000&card_welcome_message=%3Cb%3ESalut&back_label_0=Piscine&back_value_0=gratuit",
    );
    expect(frame.status).toBe(200);
    expect(frame.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(frame.text).toContain("--primary:#aa0000");
    expect(frame.text).toContain("&lt;b&gt;Salut");
    expect(frame.text).toContain("Piscine");
    expect(frame.text).toContain("Camille Exemple");
    // Nothing was saved.
    expect((await club()).primary_color).toBe("#112233");
  });
});

describe("finances and accounting", () => {
  /** Every field of the group, as its form posts them. */
  const FORM = {
    dunning_days: "7, 21, 45",
    dunning_fee_cents: "10",
    suspend_after_dunning: "true",
    renewal_invoices: "true",
    accounting_account_revenue: "3000",
    accounting_account_revenue_name: "Cotisations des membres",
    accounting_account_fees: "6840",
    accounting_account_fees_name: "Frais bancaires",
    accounting_account_bank: "1020",
    accounting_account_bank_name: "PostFinance",
    accounting_account_events: "3400",
    accounting_account_events_name: "",
    accounting_account_passage: "1090",
    accounting_account_passage_name: "Stripe",
    accounting_journal: "",
  };

  it("shows the dunning settings and the accounts with their defaults", async () => {
    const page = await t.owner.request("GET", "/admin/settings");
    expect(page.text).toContain('<h2 id="g-finances">Finances et comptabilité</h2>');
    expect(page.text).toContain('name="dunning_days" type="text" value="10, 30"');
    expect(page.text).toContain('name="dunning_fee_cents" type="text" value="0.00"');
    expect(page.text).toContain('name="accounting_account_revenue" type="text" value="3100"');
    expect(page.text).toContain('name="accounting_account_passage_name" type="text" value="Compte de passage"');
    expect(page.text).toContain("Suspendre le membre après le dernier rappel");
  });

  it("saves them through the verb of PUT club: what the database holds, audited as a dashboard write", async () => {
    const res = await t.owner.post("/admin/settings/finances", { ...FORM, accounting_journal: "CO" }, "/admin/settings");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/settings?done=finances#finances");
    expect(await club()).toMatchObject({
      dunning_days: [7, 21, 45],
      dunning_fee_cents: 1000,
      suspend_after_dunning: true,
      renewal_invoices: true,
      accounting_account_revenue: "3000",
      accounting_account_revenue_name: "Cotisations des membres",
      accounting_account_fees: "6840",
      accounting_account_passage_name: "Stripe",
      accounting_account_events_name: "",
      accounting_journal: "CO",
    });
    expect((await t.env.call("GET", `/api/clubs/${t.env.clubId}`)).body).toMatchObject({ dunning_days: [7, 21, 45], accounting_account_fees: "6840" });
    const audit = await t.env.db.read
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.club_id, t.env.clubId), eq(auditLog.path, "/admin/settings/finances")));
    expect(audit.map((a) => [a.via, a.status])).toContainEqual(["dashboard", 303]);
    // Each accounting field changed, with its old and new value; the dunning fields are not kept by value.
    const changed = JSON.parse(audit.find((a) => a.status === 303)?.changes ?? "[]") as { field: string; old: unknown; new: unknown }[];
    expect(changed).toContainEqual({ field: "accounting_account_revenue", old: "3100", new: "3000" });
    expect(changed).toContainEqual({ field: "accounting_journal", old: expect.anything(), new: "CO" });
    expect(changed.every((c) => c.field.startsWith("accounting_"))).toBe(true);
    const page = await t.owner.request("GET", "/admin/audit?via=dashboard");
    expect(page.text).toContain("accounting_account_revenue : 3100 → 3000");
    // Unticked boxes are false, an empty day list sends no reminder, an empty journal code is empty.
    const off = await t.owner.post(
      "/admin/settings/finances",
      { ...FORM, suspend_after_dunning: [], renewal_invoices: [], dunning_days: "" },
      "/admin/settings",
    );
    expect(off.status).toBe(303);
    expect(await club()).toMatchObject({ dunning_days: [], suspend_after_dunning: false, renewal_invoices: false, accounting_journal: "" });
  });

  it("refuses a bad account number or days out of order beside the field, in the club's language, changing nothing", async () => {
    const before = await club();
    for (const [name, value] of [
      ["accounting_account_bank", "10-20"],
      ["accounting_account_revenue", "12345678901"],
      ["accounting_account_fees", ""],
    ]) {
      const res = await t.owner.post("/admin/settings/finances", { ...FORM, [name]: value }, "/admin/settings");
      expect(res.status).toBe(422);
      expect(res.text).toContain(`<p id="f-${name}-error" class="error-text">Numéro de compte de 1 à 10 chiffres attendu.</p>`);
      expect(res.text).toContain(`name="${name}" type="text" value="${value}"`);
    }
    const days = await t.owner.post("/admin/settings/finances", { ...FORM, dunning_days: "30, 10" }, "/admin/settings");
    expect(days.status).toBe(422);
    expect(days.text).toContain('<p id="f-dunning_days-error" class="error-text">Jours de rappel attendus en ordre croissant');
    const fee = await t.owner.post("/admin/settings/finances", { ...FORM, dunning_fee_cents: "-5" }, "/admin/settings");
    expect(fee.status).toBe(422);
    expect(fee.text).toContain('id="f-dunning_fee_cents-error"');
    expect(await club()).toEqual(before);
  });

  it("shows a read-only admin the group disabled, and refuses their save (403)", async () => {
    const ro = await t.env.makeAdmin({ readOnly: true });
    const viewer = browser(t.env);
    await viewer.signIn(ro.email, "admin-password");
    const page = await viewer.request("GET", "/admin/settings");
    expect(page.text).toMatch(/<h2 id="g-finances">Finances et comptabilité<\/h2>(?:(?!<\/form>).)*<fieldset disabled/s);
    const before = await club();
    const res = await viewer.post("/admin/settings/finances", { ...FORM, accounting_account_bank: "9999" }, "/admin/settings");
    expect(res.status).toBe(403);
    expect(await club()).toEqual(before);
  });
});

describe("read-only admin", () => {
  it("sees the settings without a Save button, and is refused a post (403)", async () => {
    const ro = await t.env.makeAdmin({ readOnly: true });
    const viewer = browser(t.env);
    await viewer.signIn(ro.email, "admin-password");
    for (const path of ["/admin/settings", "/admin/settings/card"]) {
      const page = await viewer.request("GET", path);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<button type="submit">Enregistrer</button>');
      expect(page.text).toContain("<fieldset disabled");
    }
    const res = await viewer.post("/admin/settings/identity", { name: "Pirate" }, "/admin/settings");
    expect(res.status).toBe(403);
    expect((await club()).name).toBe("Club de test");
  });
});
