// The invoice's PDF (issue 27): rendered over HTTP, rasterized with poppler's pdftoppm, its QR code
// decoded from the picture (jsQR) and the payload checked against the standard's rules: SIX's
// Swiss QR-bill (SPC 0200, structured addresses, amount, currency, IBAN, QRR check digit or
// SCOR) and EPC's BCD 002. Without an IBAN, or where no QR code fits, the text says why.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { clubs, invoices } from "../../db/schema";
import { getClubRow } from "../../lib/clubs/internal";
import { isQrIban, isValidIban } from "../../lib/iban";
import { invoiceRow } from "../../lib/invoices";
import { fontsFor } from "../../lib/invoices/pdf";
import { isCreditorReference, isQrReference } from "../../lib/payments/reference";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";
import { decodeQr } from "../qr-fixtures";

let env: TestEnv;
let dir: string;
beforeAll(async () => {
  env = await setup();
  dir = mkdtempSync(join(tmpdir(), "invoice-pdf-"));
});
afterAll(async () => {
  await env.close();
  // KEEP_INVOICE_PNGS=<folder> keeps the pictures, to look at them.
  const keep = process.env.KEEP_INVOICE_PNGS;
  if (keep) for (const f of readdirSync(dir)) if (f.endsWith(".png")) writeFileSync(join(keep, f), readFileSync(join(dir, f)));
  rmSync(dir, { recursive: true, force: true });
});

const ADDRESS = { address: "Rue du Lac 12", postal_code: "1003", city: "Lausanne", country: "CH" };

async function setClub(values: Partial<typeof clubs.$inferInsert>) {
  await env.db.tx((t) => t.update(clubs).set(values).where(eq(clubs.id, env.clubId)));
}

async function invoiceFor(
  lines = [
    { label: "Cotisation 2026", amount_cents: 8000 },
    { label: "Licence", amount_cents: 1550 },
  ],
) {
  const member = await seedMember(env, { first_name: "Léa", last_name: "Müller" });
  const res = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: member.id, lines } });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: string; reference: string; amount_cents: number };
}

/** The PDF of invoice `id` over HTTP, kept as `<name>.pdf`; its first page as a PNG (`<name>-1.png`) at `dpi`. */
async function render(id: string, name: string, dpi = 200) {
  const res = await env.app.handle(
    new Request(`http://localhost/api/clubs/${env.clubId}/invoices/${id}/pdf`, { headers: { authorization: `Bearer ${env.key}` } }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  const pdf = new Uint8Array(await res.arrayBuffer());
  expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  const out = Bun.spawnSync(["pdftoppm", "-png", "-r", String(dpi), "-f", "1", "-l", "1", file, join(dir, name)]);
  expect(out.exitCode).toBe(0);
  const png = readdirSync(dir).find((f) => f.startsWith(`${name}-`) && f.endsWith(".png"));
  const text = Bun.spawnSync(["pdftotext", "-layout", file, "-"]).stdout.toString();
  return { pdf, png: join(dir, png as string), text };
}

/** SIX "Swiss Implementation Guidelines QR-bill" 2.3: the payload's fields by position, each checked. */
function checkSwissPayload(payload: string) {
  const f = payload.split(/\r?\n/);
  expect(f.slice(0, 3)).toEqual(["SPC", "0200", "1"]);
  const iban = f[3];
  expect(isValidIban(iban)).toBe(true);
  expect(["CH", "LI"]).toContain(iban.slice(0, 2));
  expect(iban).toHaveLength(21);
  // The creditor: a structured address (S): name, street, building number, postcode, town, country.
  expect(f[4]).toBe("S");
  expect(f[5].length).toBeGreaterThan(0);
  expect(f[5].length).toBeLessThanOrEqual(70);
  expect(f[8].length).toBeGreaterThan(0);
  expect(f[9].length).toBeGreaterThan(0);
  expect(f[10]).toMatch(/^[A-Z]{2}$/);
  // No ultimate creditor: seven empty fields.
  expect(f.slice(11, 18)).toEqual(Array(7).fill(""));
  expect(f[18]).toMatch(/^\d{1,9}\.\d{2}$/);
  expect(["CHF", "EUR"]).toContain(f[19]);
  // The debtor: absent (seven empty fields; the member's postal address is not stored) or structured.
  if (f[20]) expect(f[20]).toBe("S");
  else expect(f.slice(20, 27)).toEqual(Array(7).fill(""));
  const [kind, reference] = [f[27], f[28]];
  if (isQrIban(iban)) {
    expect(kind).toBe("QRR");
    expect(isQrReference(reference)).toBe(true);
  } else {
    expect(kind).toBe("SCOR");
    expect(isCreditorReference(reference)).toBe(true);
  }
  expect(f[30]).toBe("EPD");
  return { iban, creditor: f.slice(5, 11), amount: f[18], currency: f[19], kind, reference, message: f[29] };
}

describe("GET invoices/<id>/pdf", () => {
  it("a QR-IBAN: the Swiss QR-bill, its QR code decodes to SIX's payload with the QR reference, amount and the club's address", async () => {
    await setClub({
      ...ADDRESS,
      name: "Vélo Club Lausanne",
      payout_iban: "CH44 3199 9123 0008 8901 2",
      payout_beneficiary_name: null,
      locale: "fr",
      currency: "CHF",
    });
    const invoice = await invoiceFor();
    const { png, text } = await render(invoice.id, "qrbill");
    const payload = await decodeQr(png);
    expect(payload).not.toBeNull();
    const p = checkSwissPayload(payload as string);
    expect(p).toMatchObject({
      iban: "CH4431999123000889012",
      amount: "95.50",
      currency: "CHF",
      kind: "QRR",
      reference: invoice.reference,
      message: `Facture ${invoice.number}`,
    });
    expect(p.creditor).toEqual(["Vélo Club Lausanne", "Rue du Lac 12", "", "1003", "Lausanne", "CH"]);
    // The page in the club's language: the letterhead, the member, the lines, SIX's labels.
    for (const words of ["Vélo Club Lausanne", "Léa Müller", `Facture N° ${invoice.number}`, "Cotisation 2026", "Échéance", "Section paiement", "Récépissé"])
      expect(text).toContain(words);
  }, 30_000);

  it("a plain Swiss IBAN in German: the QR-bill with the creditor reference (SCOR)", async () => {
    await setClub({ payout_iban: "CH93 0076 2011 6238 5295 7", payout_beneficiary_name: "Veloclub Kasse", locale: "de" });
    const invoice = await invoiceFor();
    const { png, text } = await render(invoice.id, "scor");
    const p = checkSwissPayload((await decodeQr(png)) as string);
    expect(p).toMatchObject({
      iban: "CH9300762011623852957",
      kind: "SCOR",
      reference: invoice.reference,
      amount: "95.50",
      message: `Rechnung ${invoice.number}`,
    });
    expect(p.creditor[0]).toBe("Veloclub Kasse");
    for (const words of ["Rechnung Nr.", "Zahlteil", "Empfangsschein"]) expect(text).toContain(words);
  }, 30_000);

  it("EUR with a German IBAN: an EPC QR code (BCD 002) with the creditor reference", async () => {
    await setClub({
      payout_iban: "DE89 3704 0044 0532 0130 00",
      payout_bic: "COBADEFFXXX",
      payout_beneficiary_name: "Radsportverein",
      currency: "EUR",
      locale: "en",
    });
    const invoice = await invoiceFor([{ label: "Membership", amount_cents: 4250 }]);
    const { png, text } = await render(invoice.id, "epc");
    const f = ((await decodeQr(png)) as string).split("\n");
    // EPC069-12: service tag, version, UTF-8, SCT, BIC, name, IBAN, amount, purpose, structured reference, text, information.
    expect(f.slice(0, 4)).toEqual(["BCD", "002", "1", "SCT"]);
    expect(f[4]).toBe("COBADEFFXXX");
    expect(f[5]).toBe("Radsportverein");
    expect(f[6]).toBe("DE89370400440532013000");
    expect(f[7]).toBe("EUR42.50");
    expect(f[9]).toBe(invoice.reference);
    expect(isCreditorReference(f[9])).toBe(true);
    expect(f[10]).toBe("");
    expect(f[11]).toBe(`Invoice ${invoice.number}`);
    for (const words of ["Scan to pay", "DE89 3704 0044 0532 0130 00", "€42.50"]) expect(text).toContain(words);
  }, 30_000);

  it("CHF with a German IBAN: no QR code, the transfer details in text, and why", async () => {
    await setClub({ currency: "CHF", locale: "en" });
    const invoice = await invoiceFor();
    const { png, text } = await render(invoice.id, "text");
    expect(await decodeQr(png)).toBeNull();
    for (const words of ["No QR code for this currency and account", "DE89 3704 0044 0532 0130 00", "COBADEFFXXX", "Radsportverein"])
      expect(text).toContain(words);
  }, 30_000);

  it("a Swiss IBAN and no postal address: no QR-bill, the transfer in text, and why", async () => {
    await setClub({ payout_iban: "CH9300762011623852957", payout_bic: null, address: null, locale: "fr" });
    const invoice = await invoiceFor();
    const { png, text } = await render(invoice.id, "no-address");
    expect(await decodeQr(png)).toBeNull();
    expect(text).toContain("l'adresse postale du club (rue, NPA, localité, pays) est incomplète");
    expect(text).toContain("CH93 0076 2011 6238 5295 7");
  }, 30_000);

  it("an RF invoice after the club moved to a QR-IBAN: no QR-bill a bank would refuse, the transfer in text and why", async () => {
    await setClub({ ...ADDRESS, payout_iban: "CH93 0076 2011 6238 5295 7", payout_bic: null, locale: "en", currency: "CHF" });
    const invoice = await invoiceFor();
    await setClub({ payout_iban: "CH44 3199 9123 0008 8901 2" });
    const { png, text } = await render(invoice.id, "moved");
    expect(await decodeQr(png)).toBeNull();
    expect(text).toContain("this invoice's reference was made for another account");
  }, 30_000);

  it("the club's logo heads the page", async () => {
    await setClub({ payout_iban: "CH44 3199 9123 0008 8901 2", locale: "fr" });
    // A red square: its pixels are found on the page's top left, where the letterhead is.
    const logo = await sharp({ create: { width: 300, height: 100, channels: 3, background: { r: 220, g: 0, b: 0 } } })
      .png()
      .toBuffer();
    expect((await env.call("PUT", `/api/clubs/${env.clubId}/logo`, { rawBody: logo, headers: { "content-type": "image/png" } })).status).toBe(200);
    const invoice = await invoiceFor();
    const { png } = await render(invoice.id, "logo", 50);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    // 50 dpi: 20 mm from the left and 15 mm from the top is about (39, 30); the logo is 60 x 18 mm at most.
    const [r, g, b] = at(50, 40);
    expect(r > 180 && g < 50 && b < 50).toBe(true);
    expect(at(info.width - 20, 40)).toEqual([255, 255, 255]);
    await env.call("DELETE", `/api/clubs/${env.clubId}/logo`);
  }, 30_000);

  it("a logo with transparency is drawn on white, without a mask; a new logo shows on the next PDF", async () => {
    await setClub({ payout_iban: "CH44 3199 9123 0008 8901 2", locale: "fr" });
    // A colour square on a transparent ground, so the rendition keeps an alpha channel.
    const logoOf = (r: number, g: number, b: number) =>
      sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .composite([{ input: { create: { width: 150, height: 100, channels: 4, background: { r, g, b, alpha: 1 } } }, left: 0, top: 0 }])
        .png()
        .toBuffer();
    const invoice = await invoiceFor();
    const colourAt = async (name: string) => {
      const { png, pdf } = await render(invoice.id, name, 50);
      const file = join(dir, `${name}.pdf`);
      expect(pdf.length).toBeGreaterThan(0);
      // pdfimages -list: one line per image; a transparent PNG as PDFKit embeds it has a second, the "smask".
      const images = Bun.spawnSync(["pdfimages", "-list", file]).stdout.toString().split("\n").slice(2).filter(Boolean);
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      const i = (40 * info.width + 50) * info.channels;
      return {
        images,
        rgb: [...data.subarray(i, i + 3)],
        white: [...data.subarray((40 * info.width + 150) * info.channels, (40 * info.width + 150) * info.channels + 3)],
      };
    };
    expect(
      (await env.call("PUT", `/api/clubs/${env.clubId}/logo`, { rawBody: await logoOf(220, 0, 0), headers: { "content-type": "image/png" } })).status,
    ).toBe(200);
    const red = await colourAt("logo-red");
    expect(red.images).toHaveLength(1);
    expect(red.images[0]).toContain(" image ");
    expect(red.rgb[0] > 180 && red.rgb[1] < 50 && red.rgb[2] < 50).toBe(true);
    expect(red.white).toEqual([255, 255, 255]);
    // Another logo: the next PDF draws it, not the one kept for the first.
    expect(
      (await env.call("PUT", `/api/clubs/${env.clubId}/logo`, { rawBody: await logoOf(0, 0, 220), headers: { "content-type": "image/png" } })).status,
    ).toBe(200);
    const blue = await colourAt("logo-blue");
    expect(blue.rgb[2] > 180 && blue.rgb[0] < 50 && blue.rgb[1] < 50).toBe(true);
    await env.call("DELETE", `/api/clubs/${env.clubId}/logo`);
    expect((await colourAt("logo-none")).images).toHaveLength(0);
  }, 30_000);

  it("the same invoice twice in one process: every word at the same place (the fonts' kept layouts and metrics)", async () => {
    await setClub({ ...ADDRESS, payout_iban: "CH44 3199 9123 0008 8901 2", locale: "de", currency: "CHF" });
    const invoice = await invoiceFor([
      { label: "Mitgliederbeitrag 2026 für Łukasz Żółć", amount_cents: 8000 },
      { label: "Lizenz", amount_cents: 1550 },
    ]);
    const words = async (name: string) => {
      await render(invoice.id, name);
      // Each word with its box, in points: drawn twice alike only if no layout was changed by the first.
      return Bun.spawnSync(["pdftotext", "-bbox", join(dir, `${name}.pdf`), "-"])
        .stdout.toString()
        .split("\n")
        .filter((l) => l.includes("<word"));
    };
    const first = await words("twice-1");
    expect(first.length).toBeGreaterThan(40);
    expect(first.some((l) => l.includes(">Łukasz<"))).toBe(true);
    expect(await words("twice-2")).toEqual(first);
  }, 30_000);

  it("Helvetica, embedding nothing, when every text fits its encoding; DejaVu Sans, embedded, when a name does not", async () => {
    await setClub({ ...ADDRESS, payout_iban: "CH44 3199 9123 0008 8901 2", locale: "fr", currency: "CHF" });
    const fonts = (name: string) =>
      Bun.spawnSync(["pdffonts", join(dir, `${name}.pdf`)])
        .stdout.toString()
        .split("\n")
        .slice(2)
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0].replace(/^[A-Z]{6}\+/, ""));
    // Latin-1 names, the euro's and quotes' Windows-1252 extras, and a French amount whose thousands
    // are grouped by a narrow no-break space (not in WinAnsi: a no-break space stands in).
    const latin = await invoiceFor([{ label: "Cotisation « été » 2026 – Œuvre €", amount_cents: 123450 }]);
    const { text } = await render(latin.id, "helvetica");
    expect(fonts("helvetica").sort()).toEqual(["Helvetica", "Helvetica-Bold"]);
    expect(text).toContain("Léa Müller");
    expect(text).toContain("Cotisation « été » 2026 – Œuvre €");
    expect(text).toMatch(/1\s234,50/);
    const wide = await invoiceFor([{ label: "Cotisation 2026 pour Łukasz Żółć", amount_cents: 8000 }]);
    const unicode = await render(wide.id, "dejavu");
    expect(fonts("dejavu")).toEqual(expect.arrayContaining(["DejaVuSans", "DejaVuSans-Bold", "Helvetica"]));
    expect(unicode.text).toContain("Cotisation 2026 pour Łukasz Żółć");
    checkSwissPayload((await decodeQr(unicode.png)) as string);
    // The font is picked from what people typed, before drawing: such a page is drawn once.
    const club = await getClubRow(env.db, env.clubId);
    const member = { first_name: "Léa", last_name: "Müller", email: "lea@test.org" };
    const parts = async (id: string) => ({ club, member, invoice: await invoiceRow(env.db.read, env.clubId, id) });
    expect(fontsFor(await parts(latin.id))).toBe("helvetica");
    expect(fontsFor(await parts(wide.id))).toBe("dejavu");
    expect(fontsFor({ ...(await parts(latin.id)), member: { ...member, last_name: "Dvořák" } })).toBe("dejavu");
    expect(fontsFor({ ...(await parts(latin.id)), club: { ...club, payout_beneficiary_name: "Klub Łódź" } })).toBe("dejavu");
  }, 30_000);

  it("no payout IBAN: the invoice without a payment part, and the page says why", async () => {
    await setClub({ ...ADDRESS, payout_iban: null, locale: "it" });
    const invoice = await invoiceFor();
    const { png, text } = await render(invoice.id, "no-iban");
    expect(await decodeQr(png)).toBeNull();
    expect(text).toContain(`Fattura N. ${invoice.number}`);
    expect(text).toContain("il club non ha ancora indicato un conto (IBAN)");
  }, 30_000);

  it("a cancelled invoice says so and asks for nothing; finances:view reads it; another club's is a 404", async () => {
    await setClub({ payout_iban: "CH44 3199 9123 0008 8901 2", locale: "fr" });
    const invoice = await invoiceFor();
    await env.db.tx((t) => t.update(invoices).set({ status: "cancelled" }).where(eq(invoices.id, invoice.id)));
    const { png, text } = await render(invoice.id, "cancelled");
    expect(await decodeQr(png)).toBeNull();
    expect(text).toContain("Facture annulée");
    const viewer = await env.makeKey({ finances: "view" });
    expect((await env.call("GET", `/api/clubs/${env.clubId}/invoices/${invoice.id}/pdf`, { key: viewer })).status).toBe(200);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/invoices/${invoice.id}/pdf`, { key: await env.makeKey({ members: "edit" }) })).status).toBe(403);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/invoices/${crypto.randomUUID()}/pdf`)).status).toBe(404);
  }, 30_000);
});
