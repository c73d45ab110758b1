// POST .../invoices/<id>/actions/send (issue 27): the member is mailed, in the club's language,
// the invoice's PDF (received by a real local SMTP server, the attachment opened: its QR code
// decodes to the invoice's reference). Needs finances:edit and communication:edit; a cancelled
// invoice is refused (409), a refusing mail server is a 502.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { clubs, invoices } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";
import { decodeQr } from "../qr-fixtures";
import { header, type Received, startSmtp, type TestSmtp, textOf } from "../smtp";

let env: TestEnv;
let smtp: TestSmtp;
let inbox: Received[];
let dir: string;
beforeAll(async () => {
  smtp = await startSmtp();
  inbox = smtp.inbox;
  env = await setup({ SMTP_URL: smtp.url });
  dir = mkdtempSync(join(tmpdir(), "invoice-send-"));
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ payout_iban: "CH44 3199 9123 0008 8901 2", address: "Bahnhofstrasse 1", postal_code: "8001", city: "Zürich", country: "CH", locale: "de" })
      .where(eq(clubs.id, env.clubId)),
  );
});
afterAll(async () => {
  await env.close();
  await smtp.close();
  rmSync(dir, { recursive: true, force: true });
});

const send = (id: string, key?: string) => env.call("POST", `/api/clubs/${env.clubId}/invoices/${id}/actions/send`, { key });

async function invoiceFor(email: string) {
  const member = await seedMember(env, { first_name: "Jörg", email });
  const res = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, {
    body: { member_id: member.id, lines: [{ label: "Jahresbeitrag", amount_cents: 12000 }] },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; number: string; reference: string };
}

/** The application/pdf attachment of a raw message, decoded. */
function pdfOf(raw: string): { filename: string; bytes: Buffer } | null {
  const boundary = raw.match(/boundary="?([^";\r\n]+)"?/g)?.map((m) => m.replace(/^boundary="?|"?$/g, "")) ?? [];
  for (const b of boundary)
    for (const chunk of raw.split(`--${b}`)) {
      const [headers, ...rest] = chunk.split(/\r?\n\r?\n/);
      if (!/content-type:\s*application\/pdf/i.test(headers)) continue;
      const filename = headers.match(/filename="?([^";\r\n]+)"?/i)?.[1] ?? "";
      return {
        filename,
        bytes: Buffer.from(
          rest
            .join("")
            .replace(/--\s*$/, "")
            .replace(/\s+/g, ""),
          "base64",
        ),
      };
    }
  return null;
}

describe("POST invoices/<id>/actions/send", () => {
  it("mails the member the PDF in the club's language; the attachment's QR code carries the invoice's reference", async () => {
    const invoice = await invoiceFor("joerg@test.org");
    inbox.length = 0;
    const res = await send(invoice.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sent: true, to: "joerg@test.org", invoice: { id: invoice.id, number: invoice.number, status: "open" } });
    expect(inbox).toHaveLength(1);
    expect(inbox[0].to).toEqual(["joerg@test.org"]);
    expect(header(inbox[0].raw, "Subject")).toBe(`Rechnung ${invoice.number} von Club de test`);
    const text = textOf(inbox[0].raw);
    expect(text).toContain("Hallo Jörg,");
    expect(text).toContain(`Rechnung ${invoice.number}`);
    const pdf = pdfOf(inbox[0].raw);
    expect(pdf?.filename).toBe(`rechnung-${invoice.number}.pdf`);
    expect(pdf?.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const file = join(dir, "sent.pdf");
    writeFileSync(file, pdf?.bytes as Buffer);
    expect(Bun.spawnSync(["pdftoppm", "-png", "-r", "200", "-f", "1", "-l", "1", "-singlefile", file, join(dir, "sent")]).exitCode).toBe(0);
    const payload = (await decodeQr(join(dir, "sent.png"))) ?? "";
    expect(payload.split(/\r?\n/)[28]).toBe(invoice.reference);
  }, 30_000);

  it("needs finances:edit and communication:edit", async () => {
    const invoice = await invoiceFor("scopes@test.org");
    inbox.length = 0;
    expect((await send(invoice.id, await env.makeKey({ finances: "edit" }))).status).toBe(403);
    expect((await send(invoice.id, await env.makeKey({ communication: "edit" }))).status).toBe(403);
    expect((await send(invoice.id, await env.makeKey({ finances: "edit", communication: "edit" }))).status).toBe(200);
    expect(inbox).toHaveLength(1);
  }, 30_000);

  it("a cancelled invoice: 409 and no mail; an unknown one: 404; a refusing mail server: 502", async () => {
    const invoice = await invoiceFor("cancel@test.org");
    await env.db.tx((t) => t.update(invoices).set({ status: "cancelled" }).where(eq(invoices.id, invoice.id)));
    inbox.length = 0;
    const cancelled = await send(invoice.id);
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.code).toBe("INVOICE_CANCELLED");
    expect((await send(crypto.randomUUID())).status).toBe(404);
    const open = await invoiceFor("refused@test.org");
    smtp.refuse = true;
    try {
      const refused = await send(open.id);
      expect(refused.status).toBe(502);
      expect(refused.body.code).toBe("INVOICE_MAIL_FAILED");
    } finally {
      smtp.refuse = false;
    }
    expect(inbox).toHaveLength(0);
  }, 30_000);

  it("once the member is erased: the invoice stays (an accounting record), its PDF still renders, sending it is a 409", async () => {
    const invoice = await invoiceFor("erased@test.org");
    const [row] = await env.db.read.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${row.member_id}`)).status).toBe(204);
    inbox.length = 0;
    const res = await send(invoice.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("INVOICE_NO_RECIPIENT");
    expect(inbox).toHaveLength(0);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/invoices/${invoice.id}/pdf`)).status).toBe(200);
    expect((await env.db.read.select().from(invoices).where(eq(invoices.id, invoice.id)))[0].status).toBe("open");
  }, 30_000);
});
