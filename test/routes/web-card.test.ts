// GET /c/:serial — the member's web card (public HTML page)
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, eq } from "drizzle-orm";
import QRCode from "qrcode";
import { auditLog, clubs, members } from "../../db/schema";
import { escapeHtml } from "../../lib/cards/web";
import { addMember, addTier } from "../card-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let gold: { id: string };
let silver: { id: string };
beforeAll(async () => {
  env = await setup();
  gold = await addTier(env, { name: "Gold" });
  silver = await addTier(env, { name: "Silver" });
  await setClub({
    primary_color: "#0B3D2E",
    secondary_color: "#F2B705",
    card_label_color: "#A7F3D0",
    logo_url: "https://club.example/logo.png",
    card_back_fields: [
      {
        type: "text",
        label: "10% chez Vélo Shop",
        value: "Sur tout le magasin",
        is_perk: true,
        partner_logo_url: "https://velo.example/logo.png",
        partner_address: "Rue du Rhône 1, Genève",
        partner_website: "https://velo.example",
        partner_email: "shop@velo.example",
        partner_phone: "+41 22 000 00 00",
        partner_hours: "Lu-Ve 9h-18h",
        redeem_instructions: "Montrez la carte à la caisse",
      },
      { type: "perk", label: "Café offert", value: "Au bar du club" },
      { type: "text", label: "Salon Gold", value: "Accès au salon", is_perk: true, tier_ids: ["__gold__"] },
      { type: "email", label: "Contact", value: "info@club.example" },
      { type: "link", label: "Règlement", value: "https://club.example/rules", link_text: "Lire le règlement" },
    ],
    card_locations: [{ latitude: 46.2, longitude: 6.15, label: "Local du club", address: "Quai 2, Genève" }],
    card_custom_link_label: "Notre site",
    card_custom_link_url: "https://club.example",
    card_welcome_message: "Bienvenue au club !",
  });
  // tier_ids can only name a real tier once it exists.
  const [row] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
  const fields = row.card_back_fields ?? [];
  fields[2].tier_ids = [gold.id];
  await setClub({ card_back_fields: fields });
});
afterAll(() => env.close());

async function setClub(values: Partial<typeof clubs.$inferInsert>) {
  await env.db.tx((t) => t.update(clubs).set(values).where(eq(clubs.id, env.clubId)));
}
const view = (serial: string, headers: Record<string, string> = {}) => env.call("GET", `/c/${serial}`, { key: null, headers });
const memberRow = async (id: string) => (await env.db.read.select().from(members).where(eq(members.id, id)))[0];

describe("GET /c/:serial", () => {
  it("an active member's card: branding, name, tier, validity in the club's locale, banner, QR of the referral code", async () => {
    const m = await addMember(env, { first_name: "Léa", last_name: "Rossi", tier_id: gold.id, membership_end: "2099-03-05", referral_code: "WEB7RT4Q" });
    const res = await view(m.pass_serial_number);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = res.text;
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<meta name="viewport" content="width=device-width');
    expect(html).toContain("--primary:#0B3D2E");
    expect(html).toContain("--secondary:#F2B705");
    expect(html).toContain("--label:#A7F3D0");
    expect(html).toContain('<img class="logo" src="https://club.example/logo.png"');
    expect(html).toContain("Club de test");
    expect(html).toContain("Léa Rossi");
    expect(html).toContain(">Gold<");
    expect(html).toContain("5 mars 2099");
    expect(html).toContain('class="status status-active"');
    expect(html).toContain("Membre actif");
    expect(html).toContain(await QRCode.toString("WEB7RT4Q", { type: "svg", margin: 1, errorCorrectionLevel: "M" }));
    expect(html).toContain("WEB7RT4Q");
    expect(html).toContain("Bienvenue au club !");
    // Nothing is loaded from elsewhere but the club's own images.
    expect(html).not.toMatch(/<script|<link|@import|url\(/i);
  });

  it("shows the perks with their partner details, the other back fields as label/value, the locations and the custom link", async () => {
    const m = await addMember(env, { tier_id: gold.id });
    const html = (await view(m.pass_serial_number)).text;
    expect(html).toContain("Vos avantages");
    for (const text of [
      "10% chez Vélo Shop",
      "Sur tout le magasin",
      '<img class="perk-logo" src="https://velo.example/logo.png"',
      "Rue du Rhône 1, Genève",
      '<a href="https://velo.example" rel="noopener noreferrer">velo.example</a>',
      '<a href="mailto:shop@velo.example">shop@velo.example</a>',
      '<a href="tel:+41220000000">+41 22 000 00 00</a>',
      "Lu-Ve 9h-18h",
      "Comment en profiter",
      "Montrez la carte à la caisse",
      "Café offert", // the legacy `perk` type is a perk
      "Salon Gold", // limited to Gold, the member's tier
      "<dt>Contact</dt>",
      '<a href="mailto:info@club.example">info@club.example</a>',
      '<a href="https://club.example/rules" rel="noopener noreferrer">Lire le règlement</a>',
      "Local du club",
      "Quai 2, Genève",
      "mlat=46.2&amp;mlon=6.15",
      '<a class="button" href="https://club.example" rel="noopener noreferrer">Notre site</a>',
    ])
      expect(html).toContain(text);
    // Perks come before the plain fields, and plain fields are not listed as perks.
    expect(html.indexOf("Café offert")).toBeLessThan(html.indexOf("<dt>Contact</dt>"));
    expect(html).not.toContain("<dt>Café offert</dt>");
  });

  it("hides a back field limited to other tiers", async () => {
    const m = await addMember(env, { tier_id: silver.id });
    const html = (await view(m.pass_serial_number)).text;
    expect(html).toContain("Café offert");
    expect(html).not.toContain("Salon Gold");
    const none = await addMember(env);
    expect((await view(none.pass_serial_number)).text).not.toContain("Salon Gold");
  });

  it("a suspended member's card says so, in the club's language", async () => {
    const m = await addMember(env, { payment_status: "suspended", membership_end: "2099-03-05" });
    const fr = (await view(m.pass_serial_number)).text;
    expect(fr).toContain('class="status status-suspended"');
    expect(fr).toContain("Adhésion suspendue");
    expect(fr).not.toContain("Membre actif");
    await setClub({ locale: "de" });
    try {
      const de = (await view(m.pass_serial_number)).text;
      expect(de).toContain('<html lang="de">');
      expect(de).toContain("Mitgliedschaft gesperrt");
      expect(de).toContain("5. März 2099");
      expect(de).toContain("Gültig bis");
    } finally {
      await setClub({ locale: "fr" });
    }
  });

  it("expired and pending members get their banners (en and it)", async () => {
    const expired = await addMember(env, { membership_end: "2020-01-31" });
    const pending = await addMember(env, { payment_status: "pending" });
    await setClub({ locale: "en" });
    try {
      const html = (await view(expired.pass_serial_number)).text;
      expect(html).toContain("Membership expired");
      expect(html).toContain("January 31, 2020"); // `en` without a country: Intl's en-US long form
      await setClub({ locale: "it" });
      expect((await view(pending.pass_serial_number)).text).toContain("Pagamento in attesa");
    } finally {
      await setClub({ locale: "fr" });
    }
  });

  it("under the QR code, only an active card is to be shown at the entrance; the others say why they are not valid, in each language", async () => {
    const cards = {
      active: await addMember(env, { membership_end: "2099-03-05" }),
      expired: await addMember(env, { membership_end: "2020-01-31" }),
      suspended: await addMember(env, { payment_status: "suspended", membership_end: "2099-03-05" }),
      pending: await addMember(env, { payment_status: "pending", membership_end: "2099-03-05" }),
    };
    const expected = {
      fr: {
        active: "Présentez ce code à l'entrée.",
        expired: "Cette carte n'est plus valable : l'adhésion a pris fin le 31 janvier 2020.",
        suspended: "Cette carte n'est pas valable : l'adhésion est suspendue. Contactez le club.",
        pending: "Cette carte n'est pas encore valable : la cotisation n'est pas encore payée.",
      },
      en: {
        active: "Show this code at the entrance.",
        expired: "This card is no longer valid: the membership ended on January 31, 2020.",
        suspended: "This card is not valid: the membership is suspended. Please contact the club.",
        pending: "This card is not valid yet: the membership fee has not been paid.",
      },
      de: {
        active: "Zeigen Sie diesen Code am Eingang.",
        expired: "Diese Karte ist nicht mehr gültig: Die Mitgliedschaft endete am 31. Januar 2020.",
        suspended: "Diese Karte ist nicht gültig: Die Mitgliedschaft ist gesperrt. Bitte wenden Sie sich an den Verein.",
        pending: "Diese Karte ist noch nicht gültig: Der Mitgliederbeitrag ist noch nicht bezahlt.",
      },
      it: {
        active: "Mostra questo codice all'ingresso.",
        expired: "Questa tessera non è più valida: l'iscrizione è terminata il 31 gennaio 2020.",
        suspended: "Questa tessera non è valida: l'iscrizione è sospesa. Contatta il club.",
        pending: "Questa tessera non è ancora valida: la quota associativa non è ancora stata pagata.",
      },
    };
    const hint = (html: string) => /<p class="hint[^"]*">([^<]*)<\/p>/.exec(html)?.[1];
    try {
      for (const [locale, texts] of Object.entries(expected)) {
        await setClub({ locale });
        for (const [status, member] of Object.entries(cards)) {
          const html = (await view(member.pass_serial_number)).text;
          expect(html).toContain(`status-${status}`);
          expect(hint(html)).toBe(escapeHtml(texts[status as keyof typeof texts]));
          // The invitation to scan is on an active card only.
          if (status !== "active") for (const other of Object.values(expected)) expect(html).not.toContain(escapeHtml(other.active));
        }
      }
    } finally {
      await setClub({ locale: "fr" });
    }
  });

  it("escapes every value: a name with <script>, a perk label with markup, a javascript: link", async () => {
    const [row] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    const before = row.card_back_fields;
    await setClub({
      name: 'Club "<b>bold</b>"',
      card_back_fields: [
        {
          type: "text",
          label: '<img src=x onerror="alert(1)">',
          value: "</style><script>alert(2)</script>",
          is_perk: true,
          partner_website: "javascript:alert(3)",
        },
        { type: "link", label: "Lien", value: "javascript:alert(4)" },
      ],
      card_custom_link_url: "javascript:alert(5)",
      card_custom_link_label: "Piège",
    });
    try {
      const m = await addMember(env, { first_name: "<script>alert('x')</script>", last_name: "O'Brien & Co" });
      const html = (await view(m.pass_serial_number)).text;
      expect(html).not.toContain("<script");
      expect(html).not.toContain("<img src=x");
      expect(html).not.toContain("<b>bold</b>");
      expect(html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; O&#39;Brien &amp; Co");
      expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
      expect(html).toContain("Club &quot;&lt;b&gt;bold&lt;/b&gt;&quot;");
      expect(html).not.toMatch(/href="javascript:/i);
      expect(html).toContain("javascript:alert(3)"); // shown as text, not as a link
      expect(html).not.toContain("Piège"); // the custom link is not a web address: no button
    } finally {
      await setClub({ name: "Club de test", card_back_fields: before, card_custom_link_url: "https://club.example", card_custom_link_label: "Notre site" });
    }
  });

  it("the first view sets has_web (card_installed_at is left to wallet passes)", async () => {
    const m = await addMember(env);
    expect(m.has_web).toBe(false);
    await view(m.pass_serial_number);
    const after = await memberRow(m.id);
    expect(after.has_web).toBe(true);
    expect(after.card_installed_at).toBeNull();
    expect(after.updated_at).toBe(m.updated_at);
    await view(m.pass_serial_number);
    expect((await memberRow(m.id)).has_web).toBe(true);
  });

  it("needs no key and writes no audit row", async () => {
    const m = await addMember(env);
    const before = (await env.db.read.select({ n: count() }).from(auditLog))[0].n;
    const res = await view(m.pass_serial_number);
    expect(res.status).toBe(200);
    await env.app.audit.drain();
    expect((await env.db.read.select({ n: count() }).from(auditLog))[0].n).toBe(before);
  });

  it("an unknown serial is a 404 HTML page in the visitor's language; the referral code is not a serial", async () => {
    const m = await addMember(env);
    const fr = await view("doesnotexist");
    expect(fr.status).toBe(404);
    expect(fr.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(fr.text).toContain("Carte introuvable");
    const en = await view("doesnotexist", { "accept-language": "en-GB,en;q=0.8" });
    expect(en.status).toBe(404);
    expect(en.text).toContain("Card not found");
    expect((await view(m.referral_code)).status).toBe(404);
    expect((await view("x".repeat(300))).status).toBe(404);
    // A 404 view changes nothing.
    expect((await memberRow(m.id)).has_web).toBe(false);
  });

  it("is hidden from the OpenAPI description", async () => {
    const spec = (await env.call("GET", "/api/public/openapi.json", { key: null })).body;
    expect(spec.paths["/c/{serial}"]).toBeUndefined();
  });

  const CHROMIUM = "/usr/bin/chromium";
  it.skipIf(!existsSync(CHROMIUM))(
    "renders in headless Chromium: name and perk visible, screenshot is a PNG (skipped when /usr/bin/chromium is absent)",
    async () => {
      const { chromium } = await import("playwright-core");
      const m = await addMember(env, { first_name: "Camille", last_name: "Favre", tier_id: gold.id });
      const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => env.app.handle(r) });
      const dir = mkdtempSync(join(tmpdir(), "card-shot-"));
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
        const res = await page.goto(`http://127.0.0.1:${server.port}/c/${m.pass_serial_number}`);
        expect(res?.status()).toBe(200);
        expect(await page.getByRole("heading", { name: "Camille Favre" }).isVisible()).toBe(true);
        expect(await page.getByText("10% chez Vélo Shop").isVisible()).toBe(true);
        expect(await page.getByText("Montrez la carte à la caisse").isVisible()).toBe(true);
        expect(await page.locator(".qr svg").isVisible()).toBe(true);
        // Readable on a phone: nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        const file = join(dir, "card.png");
        await page.screenshot({ path: file, fullPage: true });
        const png = readFileSync(file);
        expect(png.length).toBeGreaterThan(1000);
        expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      } finally {
        await browser.close();
        server.stop(true);
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
