// POST /api/clubs/:club_id/members/:member_id/send-card-email, received by a real local SMTP server
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import QRCode from "qrcode";
import { clubs } from "../../db/schema";
import { authCases } from "../auth-cases";
import { setup, type TestEnv } from "../helpers";
import { historyOf, memberRow, seedMember } from "../members-fixtures";
import { bodyOf, header, parts, type Received, startSmtp, type TestSmtp } from "../smtp";

let env: TestEnv;
let inbox: Received[];
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  inbox = smtp.inbox;
  env = await setup({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});

const send = (id: string, key?: string) => env.call("POST", `/api/clubs/${env.clubId}/members/${id}/send-card-email`, { key });

describe("POST /api/clubs/:club_id/members/:member_id/send-card-email", () => {
  authCases(() => env, {
    method: "POST",
    path: (e) => `/api/clubs/${e.clubId}/members/0190a0a0-0000-7000-8000-000000000000/send-card-email`,
    scope: "communication:edit",
  });

  it("sends the card link and the QR code (inline, by cid) in the club's language, and sets card_email_sent_at", async () => {
    const m = await seedMember(env, { first_name: "Élise", last_name: "Favre", email: "elise@test.org" });
    inbox.length = 0;
    const res = await send(m.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sent: true, to: "elise@test.org", web_card_url: `http://localhost/c/${m.pass_serial_number}` });
    expect(inbox).toHaveLength(1);
    const mail = inbox[0];
    expect(mail.to).toEqual(["elise@test.org"]);
    expect(header(mail.raw, "Subject")).toBe("Votre carte de membre — Club de test");
    const all = parts(mail.raw);
    const text = bodyOf(all.find((p) => /text\/plain/i.test(p.headers))!);
    expect(text).toContain("Bonjour Élise,");
    expect(text).toContain(`http://localhost/c/${m.pass_serial_number}`);
    const html = bodyOf(all.find((p) => /text\/html/i.test(p.headers))!);
    expect(html).toContain('src="cid:member-card-qr@club"');
    expect(html).toContain(`href="http://localhost/c/${m.pass_serial_number}"`);
    const image = all.find((p) => /image\/png/i.test(p.headers))!;
    expect(image.headers).toMatch(/Content-ID:\s*<member-card-qr@club>/i);
    expect(image.headers).toMatch(/Content-Disposition:\s*inline/i);
    const png = Buffer.from(image.body.replace(/\s+/g, ""), "base64");
    expect(png.subarray(0, 4).toString("hex")).toBe("89504e47");
    const expected = await QRCode.toBuffer(m.referral_code, { type: "png", width: 320, margin: 2, errorCorrectionLevel: "M" });
    expect(png.equals(expected)).toBe(true);
    const row = await memberRow(env, m.id);
    expect(row.card_email_sent_at).toBe(res.body.card_email_sent_at);
    expect((await historyOf(env, m.id)).map((h) => h.action)).toEqual(["card_email_sent"]);
  });

  it("sends again when asked again, and writes in German for a German club", async () => {
    const m = await seedMember(env, { first_name: "Jörg", email: "joerg@test.org" });
    await env.db.tx((t) => t.update(clubs).set({ locale: "de" }).where(eq(clubs.id, env.clubId)));
    inbox.length = 0;
    const first = await send(m.id);
    await Bun.sleep(5);
    const second = await send(m.id);
    expect(second.status).toBe(200);
    expect(inbox).toHaveLength(2);
    expect(header(inbox[1].raw, "Subject")).toBe("Ihr Mitgliedsausweis — Club de test");
    expect(second.body.card_email_sent_at > first.body.card_email_sent_at).toBe(true);
    expect((await memberRow(env, m.id)).card_email_sent_at).toBe(second.body.card_email_sent_at);
    await env.db.tx((t) => t.update(clubs).set({ locale: "fr" }).where(eq(clubs.id, env.clubId)));
  });

  it("answers to the club's contact_email (Reply-To), none when the club has none", async () => {
    const m = await seedMember(env, { email: "reply@test.org" });
    const setContact = (contact_email: string | null) => env.db.tx((t) => t.update(clubs).set({ contact_email }).where(eq(clubs.id, env.clubId)));
    await setContact("bureau@club.test");
    inbox.length = 0;
    try {
      expect((await send(m.id)).status).toBe(200);
    } finally {
      await setContact(null);
    }
    expect(header(inbox[0].raw, "Reply-To")).toBe("bureau@club.test");
    expect((await send(m.id)).status).toBe(200);
    expect(header(inbox[1].raw, "Reply-To")).toBe("");
  });

  it("a refused send answers 502 with detail and leaves card_email_sent_at unset", async () => {
    const m = await seedMember(env, { email: "refused@test.org" });
    smtp.refuse = true;
    try {
      const res = await send(m.id);
      expect(res.status).toBe(502);
      expect(res.body.code).toBe("CARD_EMAIL_FAILED");
      expect(res.body.detail).toContain("L'e-mail de la carte n'a pas pu être envoyé");
    } finally {
      smtp.refuse = false;
    }
    expect((await memberRow(env, m.id)).card_email_sent_at).toBeNull();
    expect(await historyOf(env, m.id)).toHaveLength(0);
  });

  it("another club's member -> 404, nothing sent", async () => {
    const other = await env.otherClub();
    const theirs = await seedMember(env, {}, other.club_id);
    inbox.length = 0;
    const res = await send(theirs.id);
    expect(res.status).toBe(404);
    expect(inbox).toHaveLength(0);
  });

  it("without SMTP_URL, the mail is written as an .eml file into the outbox", async () => {
    const local = await setup();
    const m = await seedMember(local, { first_name: "Outbox", email: "outbox@test.org" });
    const res = await local.call("POST", `/api/clubs/${local.clubId}/members/${m.id}/send-card-email`);
    expect(res.status).toBe(200);
    const files = readdirSync(local.config.outboxDir).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const raw = readFileSync(join(local.config.outboxDir, files[0]), "utf8");
    expect(raw).toMatch(/^To: outbox@test\.org$/m);
    expect(raw).toContain("Content-ID: <member-card-qr@club>");
    expect((await memberRow(local, m.id)).card_email_sent_at).toBeString();
    await local.close();
  });
});
