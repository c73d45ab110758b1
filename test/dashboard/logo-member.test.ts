// The dashboard's logo form (settings) and member page (issue 32) through app.handle: the logo
// uploaded, refused (a fake image, a file over 2 MB) and removed, what the database then holds
// and what the pages show; on the member page, the card sent by email, the links to the member's
// card and page, and the payment method chosen from a list; and a read-only admin's view.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { clubLogos, clubs, members, payments } from "../../db/schema";
import { sha256Hex } from "../../lib/ids";
import { createApp } from "../../app";
import { FILTER_BOMB_SVG } from "../logo-fixtures";
import { historyOf, pageTokenOf, seedMember } from "../members-fixtures";
import { browser, type DashBrowser, type Env, ownerSignedIn } from "./helpers";

let env: Env;
let owner: DashBrowser;
beforeAll(async () => {
  ({ env, owner } = await ownerSignedIn());
});
afterAll(() => env.close());

const club = async () => (await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId)))[0];
const logos = () => env.db.read.select().from(clubLogos).where(eq(clubLogos.club_id, env.clubId));
const pngFile = async (name = "logo.png") =>
  new File(
    [
      await sharp({ create: { width: 400, height: 200, channels: 4, background: "#7C3AED" } })
        .png()
        .toBuffer(),
    ],
    name,
    { type: "image/png" },
  );
const uploadForm = (file: File) => owner.post("/admin/settings/logo", { file }, "/admin/settings");

describe("the logo in the club's settings", () => {
  it("uploads a PNG from the form: stored, and shown from our own address on both settings pages", async () => {
    const res = await uploadForm(await pngFile());
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/settings?done=logo#logo");
    const row = await club();
    expect(row.logo_url).toStartWith(`http://localhost/logos/${env.clubId}/logo.png?v=`);
    expect(await logos()).toHaveLength(8);
    const page = await owner.request("GET", "/admin/settings?done=logo");
    expect(page.text).toContain("Réglages enregistrés.");
    // The path, not BASE_URL's address: the page's CSP takes images from its own host.
    const src = (row.logo_url as string).replace("http://localhost", "");
    expect(page.text).toContain(`<img src="${src}" alt="Le logo actuel du club" class="logo-preview"`);
    expect(page.text).toContain('enctype="multipart/form-data"');
    expect(page.text).toContain('accept="image/png,image/jpeg,image/webp,image/svg+xml"');
    const card = await owner.request("GET", "/admin/settings/card");
    expect(card.text).toContain(`<img src="${src}"`);
    expect(card.text).toContain('href="/admin/settings#logo"');
    // The file it names is served.
    const file = await env.app.handle(new Request(`http://localhost${src}`));
    expect(file.headers.get("content-type")).toBe("image/png");
  });

  it("refuses a fake image beside the field (422) and keeps the logo it had", async () => {
    const before = (await club()).logo_url;
    const res = await uploadForm(new File(["<html>not a picture</html>"], "logo.png", { type: "image/png" }));
    expect(res.status).toBe(422);
    expect(res.text).toContain('<p id="f-logo-file-error" class="error-text">Ce fichier n&#x27;est pas une image PNG, JPEG, WebP ou SVG lisible.</p>');
    expect(res.text).toContain('aria-describedby="f-logo-file-hint f-logo-file-error"');
    expect((await club()).logo_url).toBe(before);
  });

  it("refuses an SVG that draws too long beside the field (422) and keeps the logo it had", async () => {
    const before = (await club()).logo_url;
    const res = await uploadForm(new File([FILTER_BOMB_SVG], "logo.svg", { type: "image/svg+xml" }));
    expect(res.status).toBe(422);
    expect(res.text).toContain(
      '<p id="f-logo-file-error" class="error-text">Ce dessin SVG est trop complexe : il n&#x27;a pas pu être dessiné en 5 secondes. Simplifiez-le (filtres, éléments répétés) ou envoyez-le en PNG.</p>',
    );
    expect((await club()).logo_url).toBe(before);
  });

  it("says in words that a file over 2 MB is too large (413), storing nothing", async () => {
    const before = (await club()).logo_url;
    const big = Buffer.concat([await (await pngFile()).bytes(), Buffer.alloc(2 * 1024 * 1024)]);
    const res = await uploadForm(new File([big], "big.png", { type: "image/png" }));
    expect(res.status).toBe(413);
    expect(res.text).toContain("Le fichier dépasse 2 Mo.");
    // Far past it, the frame refuses the body before the page: still a page, not the API's JSON.
    const huge = await uploadForm(new File([Buffer.alloc(6 * 1024 * 1024)], "huge.png", { type: "image/png" }));
    expect(huge.status).toBe(413);
    expect(huge.headers.get("content-type")).toContain("text/html");
    expect((await club()).logo_url).toBe(before);
  });

  it("removes the logo", async () => {
    const res = await owner.post("/admin/settings/logo/remove", {}, "/admin/settings");
    expect(res.status).toBe(303);
    expect((await club()).logo_url).toBeNull();
    expect(await logos()).toEqual([]);
    const page = await owner.request("GET", "/admin/settings");
    expect(page.text).toContain("Aucun logo.");
    expect(page.text).not.toContain("/admin/settings/logo/remove");
  });

  it("shows a read-only admin the logo but no form, and refuses their upload (403)", async () => {
    await uploadForm(await pngFile());
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const page = await viewer.request("GET", "/admin/settings");
    expect(page.text).toContain('class="logo-preview"');
    expect(page.text).not.toContain('action="/admin/settings/logo"');
    const before = (await club()).logo_url;
    const post = await viewer.post("/admin/settings/logo", { file: await pngFile("other.png") }, "/admin/settings");
    expect(post.status).toBe(403);
    expect((await club()).logo_url).toBe(before);
  });
});

describe("the dashboard loaded by its first request (app/index.ts)", () => {
  /** A browser holding the owner's session on a server just started: the dashboard not loaded yet. */
  const restarted = async () => {
    const fresh = browser({ ...env, app: await createApp(env.db, env.config) });
    for (const [name, value] of owner.jar) fresh.jar.set(name, value);
    return fresh;
  };

  it("reads an upload as its first request within the logo form's own cap, not MAX_BODY_BYTES", async () => {
    // Over MAX_BODY_BYTES (1 MB), under the form's 4 MB: taken once the page is known.
    const file = new File([Buffer.concat([await (await pngFile()).bytes(), Buffer.alloc(1536 * 1024)])], "logo.png", { type: "image/png" });
    const form = { _csrf: owner.csrfOf(await owner.request("GET", "/admin/settings")), file };
    const res = await (await restarted()).request("POST", "/admin/settings/logo", { form });
    expect(res.status).toBe(303);
    expect((await club()).logo_url).toStartWith(`http://localhost/logos/${env.clubId}/logo.png?v=`);
  });

  it("answers requests that come together while it loads, each with its page", async () => {
    const fresh = await restarted();
    const pages = await Promise.all([fresh.request("GET", "/admin/settings"), fresh.request("GET", "/admin"), fresh.request("GET", "/admin/login")]);
    // The sign-in form sends a signed-in admin on to the dashboard.
    expect(pages.map((p) => p.status)).toEqual([200, 200, 303]);
    expect(pages[0].text).toContain('action="/admin/settings/logo"');
  });
});

describe("the member page", () => {
  it("links the member's card (/c/) and opens their own page (/m/) at an address of the admin's, the member's link still working", async () => {
    const m = await seedMember(env, { first_name: "Ida", last_name: "Links" });
    const page = await owner.request("GET", `/admin/members/${m.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="http://localhost/c/${m.pass_serial_number}">Ouvrir la carte</a>`);
    expect(page.text).toContain(`action="/admin/members/${m.id}/page"`);
    expect(page.text).toContain("<dt>Carte envoyée</dt><dd>Jamais</dd>");
    // The page's token is kept as a hash: "open" makes the admin an address of their own.
    const opened = await owner.post(`/admin/members/${m.id}/page`, {}, `/admin/members/${m.id}`);
    expect(opened.status).toBe(303);
    const token = /^http:\/\/localhost\/m\/(\w{32})$/.exec(opened.headers.get("location") ?? "")?.[1] as string;
    const [row] = await env.db.read.select().from(members).where(eq(members.id, m.id));
    expect(row.admin_page_token).toBe(sha256Hex(token));
    expect(row.manage_token).toBe(sha256Hex(pageTokenOf(m)));
    // The links lead somewhere: the card, the admin's address and the member's own link answer.
    expect((await env.app.handle(new Request(`http://localhost/c/${m.pass_serial_number}`), "10.9.0.1")).status).toBe(200);
    expect((await env.app.handle(new Request(`http://localhost/m/${token}`), "10.9.0.2")).status).toBe(200);
    expect((await env.app.handle(new Request(`http://localhost/m/${pageTokenOf(m)}`), "10.9.0.2")).status).toBe(200);
    // Opened again: a new address; the one before stops, the member's does not.
    const again = await owner.post(`/admin/members/${m.id}/page`, {}, `/admin/members/${m.id}`);
    expect(again.headers.get("location")).not.toContain(token);
    expect((await env.app.handle(new Request(`http://localhost/m/${token}`), "10.9.0.3")).status).toBe(404);
    expect((await env.app.handle(new Request(`http://localhost/m/${pageTokenOf(m)}`), "10.9.0.3")).status).toBe(200);
  });

  it("a read-only admin is not offered the member's page (whoever holds its address acts as the member), and cannot open it", async () => {
    const m = await seedMember(env, { first_name: "Ro", last_name: "Page" });
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const page = await viewer.request("GET", `/admin/members/${m.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(`action="/admin/members/${m.id}/page"`);
    const refused = await viewer.post(`/admin/members/${m.id}/page`, {}, `/admin/members/${m.id}`);
    expect(refused.status).toBe(403);
    const [row] = await env.db.read.select().from(members).where(eq(members.id, m.id));
    expect(row.admin_page_token).toBeNull();
  });

  it("sends the card by email with the API's verb: the mail goes out, card_email_sent_at and the history say so", async () => {
    const m = await seedMember(env, { first_name: "Sam", last_name: "Send", email: "sam.send@test.org" });
    const page = await owner.request("GET", `/admin/members/${m.id}`);
    expect(page.text).toContain(`action="/admin/members/${m.id}/send-card"`);
    const res = await owner.post(`/admin/members/${m.id}/send-card`, {}, `/admin/members/${m.id}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/members/${m.id}?done=send-card`);
    const [row] = await env.db.read.select().from(members).where(eq(members.id, m.id));
    expect(row.card_email_sent_at).toBeString();
    expect((await historyOf(env, m.id)).map((h) => h.action)).toContain("card_email_sent");
    const sent = readdirSync(env.config.outboxDir).map((f) => readFileSync(join(env.config.outboxDir, f), "utf8"));
    expect(sent.some((raw) => raw.includes("To: sam.send@test.org"))).toBe(true);
    const after = await owner.request("GET", `/admin/members/${m.id}?done=send-card`);
    expect(after.text).toContain("Carte envoyée par e-mail.");
    expect(after.text).not.toContain("<dd>Jamais</dd>");
  });

  it("records a payment with a method chosen from the list (no Stripe: a payment outside the provider)", async () => {
    const m = await seedMember(env, { payment_status: "pending" });
    const page = await owner.request("GET", `/admin/members/${m.id}`);
    const select = /<select id="mark-paid-method" name="payment_method"[^>]*>([\s\S]*?)<\/select>/.exec(page.text)?.[1] ?? "";
    expect([...select.matchAll(/<option value="([^"]*)"/g)].map((o) => o[1])).toEqual(["bank_transfer", "cash", "card"]);
    expect(select).toContain('<option value="bank_transfer" selected>Virement</option>');
    const res = await owner.post(`/admin/members/${m.id}/actions/mark-paid`, { amount: "30", payment_method: "card" }, `/admin/members/${m.id}`);
    expect(res.status).toBe(303);
    const [paid] = await env.db.read.select().from(payments).where(eq(payments.member_id, m.id));
    expect(paid).toMatchObject({ amount_cents: 3000, method: "card" });
  });

  it("edits the payment method from a list, keeping a method outside it that the member already has", async () => {
    const m = await seedMember(env, { payment_method: "twint" });
    const page = await owner.request("GET", `/admin/members/${m.id}/edit`);
    const select = /<select id="f-payment_method" name="payment_method"[^>]*>([\s\S]*?)<\/select>/.exec(page.text)?.[1] ?? "";
    expect([...select.matchAll(/<option value="([^"]*)"/g)].map((o) => o[1])).toEqual(["", "bank_transfer", "cash", "card", "stripe", "twint"]);
    expect(select).toContain('<option value="twint" selected>twint</option>');
    const form = { first_name: m.first_name, last_name: m.last_name, email: m.email, tier_id: "", membership_end: m.membership_end, reason: "" };
    expect((await owner.post(`/admin/members/${m.id}/edit`, { ...form, payment_method: "twint" }, `/admin/members/${m.id}/edit`)).status).toBe(303);
    expect((await env.db.read.select().from(members).where(eq(members.id, m.id)))[0].payment_method).toBe("twint");
    expect((await owner.post(`/admin/members/${m.id}/edit`, { ...form, payment_method: "cash" }, `/admin/members/${m.id}/edit`)).status).toBe(303);
    expect((await env.db.read.select().from(members).where(eq(members.id, m.id)))[0].payment_method).toBe("cash");
  });

  it("shows a read-only admin no send button, and refuses their post (403): nothing is sent", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const m = await seedMember(env);
    const page = await viewer.request("GET", `/admin/members/${m.id}`);
    expect(page.text).not.toContain("/send-card");
    // The links are reading: a viewer has them.
    expect(page.text).toContain(`/c/${m.pass_serial_number}`);
    const post = await viewer.post(`/admin/members/${m.id}/send-card`, {}, `/admin/members/${m.id}`);
    expect(post.status).toBe(403);
    expect((await env.db.read.select().from(members).where(eq(members.id, m.id)))[0].card_email_sent_at).toBeNull();
  });

  it("a send the mail server refuses shows the reason on the page (502) and notes nothing", async () => {
    const { env: down, owner: admin } = await ownerSignedIn({ SMTP_URL: "smtp://127.0.0.1:9" });
    try {
      const m = await seedMember(down);
      const res = await admin.post(`/admin/members/${m.id}/send-card`, {}, `/admin/members/${m.id}`);
      expect(res.status).toBe(502);
      expect(res.text).toContain('role="alert"');
      expect((await down.db.read.select().from(members).where(eq(members.id, m.id)))[0].card_email_sent_at).toBeNull();
    } finally {
      await down.close();
    }
  });
});
