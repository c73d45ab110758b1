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

type Transport = ReturnType<Awaited<ReturnType<typeof mailer>>["createTransport"]>;

/** How long a pooled SMTP connection may wait for the next message before it is closed (QUIT). */
const SMTP_IDLE_MS = 5_000;

/**
 * One pooled transport per SMTP server, kept while mail flows: a mailing's or a reminder run's
 * messages share a connection (up to 100 each) instead of paying a connection, EHLO, STARTTLS
 * and AUTH per message, which a remote provider makes slower than MAIL_RATE_PER_MINUTE allows.
 * Closed once idle, so no connection sits open at the provider between runs.
 */
const pools = new Map<string, { transport: Transport; sending: number; idle: ReturnType<typeof setTimeout> | null }>();

async function sendBySmtp(url: string, message: MailMessage): Promise<Sent> {
  const nodemailer = await mailer();
  let pool = pools.get(url);
  if (!pool) {
    // Options beside the URL (a second argument would be the messages' defaults, not the transport's).
    const transport = nodemailer.createTransport({
      url,
      pool: true,
      maxConnections: 2,
      maxMessages: 100,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    pool = { transport, sending: 0, idle: null };
    pools.set(url, pool);
  }
  const kept = pool;
  if (kept.idle) clearTimeout(kept.idle);
  kept.idle = null;
  kept.sending++;
  try {
    const info = await kept.transport.sendMail(message);
    return { messageId: info.messageId, via: "smtp" };
  } finally {
    if (--kept.sending === 0) {
      kept.idle = setTimeout(() => closePool(url), SMTP_IDLE_MS);
      kept.idle.unref?.();
    }
  }
}

function closePool(url: string): void {
  const pool = pools.get(url);
  if (!pool) return;
  pools.delete(url);
  if (pool.idle) clearTimeout(pool.idle);
  pool.transport.close();
}

/** Closes the kept SMTP connections (a stopping server; a test before its SMTP server stops). */
export function closeMailConnections(): void {
  for (const url of [...pools.keys()]) closePool(url);
}

/** Sends one message; throws on any failure (the caller maps it to a 502). */
export async function sendMail(config: MailConfig, message: MailMessage): Promise<Sent> {
  if (config.smtpUrl) return sendBySmtp(config.smtpUrl, message);
  const nodemailer = await mailer();
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
