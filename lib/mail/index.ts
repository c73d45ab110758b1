// Outgoing email. With SMTP_URL set, mail goes through that server (nodemailer); without it,
// each message is written as an .eml file into the outbox folder (DESIGN.md section 2), so a
// fresh machine still "sends" and a person can open what would have gone out. Never called
// inside a database transaction (DESIGN.md section 1).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MailConfig } from "../config";

export type { MailConfig };
import { randomBase62 } from "../ids";
import { lazy } from "../lazy";

export type MailMessage = {
  from: string;
  replyTo?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
};

export type Sent = { messageId: string; via: "smtp" | "outbox"; path?: string };

/** nodemailer loads with the first message. */
const mailer = lazy(async () => (await import("nodemailer")).default);

/** Sends one message; throws on any failure (the caller maps it to a 502). */
export async function sendMail(config: MailConfig, message: MailMessage): Promise<Sent> {
  const nodemailer = await mailer();
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as never);
    try {
      const info = await transport.sendMail(message);
      return { messageId: info.messageId, via: "smtp" };
    } finally {
      transport.close();
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = (await transport.sendMail(message)) as { messageId: string; message: Buffer };
  mkdirSync(config.outboxDir, { recursive: true });
  const path = join(config.outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomBase62(6)}.eml`);
  writeFileSync(path, info.message);
  return { messageId: info.messageId, via: "outbox", path };
}
