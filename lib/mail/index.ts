// Outgoing email. With SMTP_URL set, mail goes through that server (nodemailer); without it,
// each message is written as an .eml file into the outbox folder (DESIGN.md section 2), so a
// fresh machine still "sends" and a person can open what would have gone out. Never called
// inside a database transaction (DESIGN.md section 1): a change that must mail queues a `mail`
// job in its transaction instead (`queueMail`), written out in full, and the worker sends it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Queryable } from "../../db";
import type { MailConfig } from "../config";

export type { MailConfig };
import { randomBase62 } from "../ids";
import { enqueueJob, type JobKind, type JobKinds, TemporaryFailure } from "../jobs";
import { lazy } from "../lazy";

export type MailMessage = {
  from: string | { name: string; address: string };
  replyTo?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; content: Buffer; contentType: string; cid?: string }[];
  /** Extra headers (a mailing's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
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

/** The sender of a club's mail: its name at `no-reply@` the service's host, replies to its contact address. */
export function clubSender(baseUrl: string, club: { name: string; contact_email: string | null }): Pick<MailMessage, "from" | "replyTo"> {
  const host = new URL(baseUrl).hostname || "localhost";
  return { from: { name: club.name, address: `no-reply@${host}` }, replyTo: club.contact_email ?? undefined };
}

/**
 * The pace of mail sent in bulk (a mailing, the reminders): at most `slice` messages a run, some
 * ten seconds' worth at MAIL_RATE_PER_MINUTE, and how long `sent` of them take at that rate (when
 * the next run may start).
 */
export function mailPace(ratePerMinute: number): { slice: number; msFor(sent: number): number } {
  return { slice: Math.max(1, Math.ceil(ratePerMinute / 6)), msFor: (sent) => Math.ceil((sent * 60_000) / ratePerMinute) };
}

export const MAIL_SEND = "mail";

/** Queues `message` inside the caller's transaction: it goes out if and only if the change commits. No attachments. */
export async function queueMail(t: Queryable, clubId: string, message: Omit<MailMessage, "attachments">): Promise<void> {
  await enqueueJob(t, { clubId, kind: MAIL_SEND, payload: { message } });
}

/** Sends one queued message; a refusal or an unreachable server is retried with the job's back-off. */
export const mailJob: JobKind = {
  // Messages do not depend on each other: each is its own chain.
  orderKey: (job) => `${MAIL_SEND}:${job.id}`,
  run: async (_db, job, env) => {
    const { message } = job.payload as { message: MailMessage };
    try {
      const sent = await sendMail({ smtpUrl: env.config.smtpUrl, outboxDir: env.config.outboxDir }, message);
      return `${sent.via} ${sent.messageId}`;
    } catch (err) {
      throw new TemporaryFailure(err instanceof Error ? err.message.slice(0, 300) : "mail failed");
    }
  },
};

export const MAIL_JOBS: JobKinds = { [MAIL_SEND]: mailJob };
