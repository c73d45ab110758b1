// Sending webhooks (DESIGN.md section 15), on the job queue: one job per delivery, the jobs of one
// endpoint one after the other (in order, where retries allow). Each attempt checks the URL again
// (a name may resolve to a private address since), signs with Standard Webhooks
// (HMAC-SHA256 as `standardwebhooks` signs: the current secret, and the previous one during a rotation's 24 h),
// POSTs with a 15 s timeout and no redirect followed, and records what came back. Only a 2xx
// counts. Retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; a 410 disables the endpoint,
// as do 3 days of failures (then the club's contact is mailed). A crash between the send and
// its record sends again: at least once, never lost. A club's deliveries hold at most a quarter
// of the job slots at once (the kind's `share`), and an endpoint that keeps timing out is paused
// (its deliveries wait, no attempt counted), so a club's hanging endpoints delay no other club.
import { createHmac } from "node:crypto";
import { and, asc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { forUpdate } from "../../db/locks";
import { admins, jobs, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { clubSettings } from "../clubs/internal";
import { WEBHOOK_DISABLED_TEXTS } from "../i18n/texts";
import { newId } from "../ids";
import {
  completeJobIn,
  deferJobIn,
  enqueueJob,
  failJobIn,
  type JobEnv,
  type JobKinds,
  type JobRow,
  PermanentFailure,
  PURGE_SLICE,
  purgeInSlices,
  RECORDED,
  recurringJob,
  TemporaryFailure,
} from "../jobs";
import { sendMail } from "../mail";
import { fanOut, WEBHOOK_DELIVERY, WEBHOOK_FANOUT } from "./emit";
import { checkWebhookUrl } from "./guard";

/** Waits before each retry (Standard Webhooks' usual schedule): 8 attempts over about 27 h. */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;
export const DELIVERY_TIMEOUT_MS = 15_000;
/**
 * From this many timeouts in a row, the endpoint is paused: 1 min, then twice as long at each
 * further timeout, 1 h at most (so it is still tried hourly, and the 3 days' rule still applies).
 */
export const PAUSE_FROM_TIMEOUTS = 2;
export const PAUSE_BASE_MS = 60_000;
export const PAUSE_MAX_MS = 3_600_000;

/** How long an endpoint with `timeouts` timeouts in a row is paused (0: not). */
export const pauseAfter = (timeouts: number): number =>
  timeouts < PAUSE_FROM_TIMEOUTS ? 0 : Math.min(PAUSE_MAX_MS, PAUSE_BASE_MS * 2 ** (timeouts - PAUSE_FROM_TIMEOUTS));
/** An endpoint failing without a success for this long is disabled. */
export const FAILING_LIMIT_MS = 3 * 86_400_000;
/** How much of an answer the delivery log keeps. */
const BODY_KEPT = 1024;
export const WEBHOOK_DISABLED_MAIL = "webhook_disabled_mail";

type EndpointRow = typeof webhookEndpoints.$inferSelect;
/** What a delivery's run reads of its endpoint and of itself (the work read): no more. */
type Endpoint = Pick<EndpointRow, "id" | "club_id" | "url" | "secret" | "previous_secret" | "previous_secret_expires_at" | "enabled" | "paused_until">;
type Delivery = Pick<typeof webhookDeliveries.$inferSelect, "id" | "status" | "attempts" | "job_id" | "msg_id" | "payload">;
type Attempt = { status_code: number | null; duration_ms: number; response_body: string | null; error: string | null };
/** An attempt, and whether it went unanswered for the whole timeout (what pauses an endpoint). */
type Tried = { attempt: Attempt; timedOut: boolean };

/**
 * Standard Webhooks' `v1,` signature of `payload` by `secret` (`whsec_` + the key in base64): an
 * HMAC-SHA256 of `<msgId>.<seconds>.<payload>`, in base64. Node's HMAC, not the package's
 * `Webhook.sign` (SHA-256 in JavaScript, its key decoded anew at each call): the same bytes, which
 * the tests check with the package's `verify`.
 */
function sign(secret: string, msgId: string, seconds: number, payload: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${msgId}.${seconds}.${payload}`).digest("base64")}`;
}
const SECRET_PREFIX = "whsec_";

/** The `webhook-*` headers of `payload`: one `v1,` signature per secret in use at `now`, space-separated. */
export function signedHeaders(
  endpoint: Pick<EndpointRow, "secret" | "previous_secret" | "previous_secret_expires_at">,
  msgId: string,
  payload: string,
  now: Date,
) {
  const seconds = Math.floor(Date.now() / 1000);
  const secrets = [endpoint.secret];
  if (endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now.toISOString())
    secrets.push(endpoint.previous_secret);
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": secrets.map((s) => sign(s, msgId, seconds, payload)).join(" "),
  };
}

/** The first BODY_KEPT bytes of the answer, as text; the rest is not read. */
async function firstKb(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < BODY_KEPT) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, BODY_KEPT));
}

/** One attempt: the guard, then the signed POST. Never throws. */
async function attempt(endpoint: Endpoint, delivery: Delivery, env: JobEnv): Promise<Tried> {
  const verdict = await checkWebhookUrl(endpoint.url, env.config.webhooks);
  if (!verdict.ok) {
    const hint = verdict.private ? " (WEBHOOK_ALLOW_PRIVATE=true allows it)" : "";
    return { attempt: { status_code: null, duration_ms: 0, response_body: null, error: `WEBHOOK_URL_NOT_ALLOWED: ${verdict.reason}${hint}` }, timedOut: false };
  }
  const timeoutMs = env.config.webhooks.deliveryTimeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(verdict.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "club-api-webhooks/1.0",
        ...signedHeaders(endpoint, delivery.msg_id, delivery.payload, env.now),
      },
      body: delivery.payload,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    // An answer whose body stalls past the time limit counts as a time-out (its endpoint is paused
    // like one that never answers), though its status is kept.
    let stalled = false;
    // An answer that announces a short length is read whole (what a receiver's "ok" is): a
    // stream's reader and its chunks cost about 20 µs more per delivery than the text.
    const announced = res.headers.get("content-length");
    const short = announced !== null && Number(announced) <= BODY_KEPT;
    const body = await (short ? res.text() : firstKb(res)).catch((err) => {
      stalled = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      return "";
    });
    return { attempt: { status_code: res.status, duration_ms: took(), response_body: body, error: null }, timedOut: stalled };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return {
      attempt: {
        status_code: null,
        duration_ms: took(),
        response_body: null,
        error: timedOut ? `no answer within ${timeoutMs / 1000} s` : String(err).slice(0, 500),
      },
      timedOut,
    };
  }
}

/** The statements of every delivery, prepared once (Db.prepareRead / prepareTx): the queue runs them for each message. */
function statements(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return {
    /**
     * The job's status, its delivery and the delivery's endpoint, in one read (three before: 2 of
     * the 10.6 statements a delivery ran, and as many round trips on PostgreSQL). A missing
     * delivery or endpoint comes as null (each object's first column is its id, never null when
     * it exists). Only the columns the run uses: the endpoint's event list (JSON, decoded for
     * each delivery) and its description are not read.
     */
    work: db.prepareRead("webhooks.deliver.work", (q) =>
      q
        .select({
          status: jobs.status,
          delivery: {
            id: webhookDeliveries.id,
            status: webhookDeliveries.status,
            attempts: webhookDeliveries.attempts,
            job_id: webhookDeliveries.job_id,
            msg_id: webhookDeliveries.msg_id,
            payload: webhookDeliveries.payload,
          },
          endpoint: {
            id: webhookEndpoints.id,
            club_id: webhookEndpoints.club_id,
            url: webhookEndpoints.url,
            secret: webhookEndpoints.secret,
            previous_secret: webhookEndpoints.previous_secret,
            previous_secret_expires_at: webhookEndpoints.previous_secret_expires_at,
            enabled: webhookEndpoints.enabled,
            paused_until: webhookEndpoints.paused_until,
          },
        })
        .from(jobs)
        .leftJoin(webhookDeliveries, eq(webhookDeliveries.id, p("delivery")))
        .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
        .where(eq(jobs.id, p("job")))
        .limit(1),
    ),
    /**
     * The endpoint's counts, read to be written back, its row locked (PostgreSQL): deliveries to
     * it finishing at once (on several processes) count one after the other.
     */
    failingSince: db.prepareTx("webhooks.deliver.failing", (q) =>
      forUpdate(
        q
          .select({ enabled: webhookEndpoints.enabled, failing_since: webhookEndpoints.failing_since, timeouts: webhookEndpoints.timeouts })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.id, p("id")))
          .limit(1),
      ),
    ),
    /**
     * An answered delivery's endpoint made healthy again, when it was not (failures since a
     * success, time-outs in a row and the pause they set): one statement that reads nothing,
     * instead of the read of its counts and a write after it. On PostgreSQL it locks the row only
     * when there is something to clear (the failures it clears were counted under that lock).
     */
    recovered: db.prepareTx("webhooks.deliver.recovered", (q) =>
      q
        .update(webhookEndpoints)
        .set({
          failing_since: null,
          timeouts: 0,
          paused_until: sql`case when ${webhookEndpoints.timeouts} <> 0 then null else ${webhookEndpoints.paused_until} end`,
        })
        .where(and(eq(webhookEndpoints.id, p("id")), sql`(${webhookEndpoints.failing_since} is not null or ${webhookEndpoints.timeouts} <> 0)`)),
    ),
    attempt: db.prepareTx("webhooks.deliver.attempt", (q) =>
      q.insert(webhookAttempts).values({
        id: p("id"),
        delivery_id: p("delivery"),
        status_code: p("status_code"),
        duration_ms: p("duration_ms"),
        response_body: p("response_body"),
        error: p("error"),
        created_at: p("now"),
      }),
    ),
    succeeded: db.prepareTx("webhooks.deliver.succeeded", (q) =>
      q
        .update(webhookDeliveries)
        .set({
          status: "succeeded",
          attempts: sql`${p("attempts")}`,
          last_status_code: sql`${p("status_code")}`,
          next_attempt_at: null,
          finished_at: sql`${p("now")}`,
        })
        .where(eq(webhookDeliveries.id, p("id"))),
    ),
  };
}

const outcomeOf = (a: Attempt) => (a.status_code === null ? (a.error ?? "failed") : `HTTP ${a.status_code}`);

/**
 * The job of one delivery (payload `{delivery_id, endpoint_id}`). Its kind reads its own status
 * (JobKind's `readsOwnStatus`): a job no longer pending (done by another process whose lease had
 * lapsed) writes nothing.
 */
async function runDelivery(db: Db, job: JobRow, env: JobEnv): Promise<string | typeof RECORDED> {
  const q = statements(db);
  const [work] = await q.work.execute({ job: job.id, delivery: String(job.payload.delivery_id) });
  if (work?.status !== "pending") return RECORDED;
  const { delivery, endpoint } = work;
  // Gone with its endpoint, delivered meanwhile, or taken over by a manual retry's job.
  if (delivery?.status !== "pending" || delivery.job_id !== job.id) return "nothing to do";
  if (!endpoint) return "nothing to do";
  const now = env.now.toISOString();
  if (!endpoint.enabled) {
    await db.tx(async (t) => {
      await t.update(webhookDeliveries).set({ status: "failed", next_attempt_at: null, finished_at: now }).where(eq(webhookDeliveries.id, delivery.id));
      await completeJobIn(t, job, "endpoint disabled", db);
    });
    return RECORDED;
  }
  // Paused after timeouts: the delivery waits, no attempt counted, no slot held for 15 s.
  if (endpoint.paused_until && endpoint.paused_until > now) {
    const until = endpoint.paused_until;
    await db.tx(async (t) => {
      await t.update(webhookDeliveries).set({ next_attempt_at: until }).where(eq(webhookDeliveries.id, delivery.id));
      await deferJobIn(t, job, until, `endpoint paused until ${until}: it kept timing out`);
    });
    return RECORDED;
  }
  const { attempt: tried, timedOut } = await attempt(endpoint, delivery, env);
  const ok = tried.status_code !== null && tried.status_code >= 200 && tried.status_code < 300;
  const outcome = outcomeOf(tried);
  const attempts = delivery.attempts + 1;
  // The schedule counts this job's attempts: a manual retry starts a new schedule.
  const round = job.attempts + 1;
  // The attempt, the delivery's and the endpoint's new state and the job's outcome: one commit.
  if (ok && !timedOut) {
    // Answered in time (nearly every delivery): the endpoint is healthy whatever it was, so its
    // counts need not be read first (the endpoint's row still first: parents before children).
    await db.tx(async (t) => {
      await q.recovered(t).execute({ id: endpoint.id });
      await q.attempt(t).execute({ id: newId(), delivery: delivery.id, ...tried, now });
      await q.succeeded(t).execute({ id: delivery.id, attempts, status_code: tried.status_code, now });
      await completeJobIn(t, job, outcome, db);
    });
    return RECORDED;
  }
  await db.tx(async (t) => {
    // The endpoint first (its row locked: parents before children), then the attempt.
    const [current] = await q.failingSince(t).execute({ id: endpoint.id });
    await q.attempt(t).execute({ id: newId(), delivery: delivery.id, ...tried, now });
    // Timeouts in a row: any answer (or a failure that came quickly) ends the run.
    const timeouts = timedOut ? (current?.timeouts ?? 0) + 1 : 0;
    const pause = pauseAfter(timeouts);
    const pacing: Partial<EndpointRow> = {};
    if (current && current.timeouts !== timeouts) pacing.timeouts = timeouts;
    if (pause) pacing.paused_until = new Date(env.now.getTime() + pause).toISOString();
    else if (current?.timeouts) pacing.paused_until = null;
    if (ok) {
      await q.succeeded(t).execute({ id: delivery.id, attempts, status_code: tried.status_code, now });
      if (current?.failing_since) pacing.failing_since = null;
      if (Object.keys(pacing).length) await t.update(webhookEndpoints).set(pacing).where(eq(webhookEndpoints.id, endpoint.id));
      await completeJobIn(t, job, outcome, db);
      return;
    }
    const failingSince = current?.failing_since ?? now;
    const disable = tried.status_code === 410 ? "gone" : Date.parse(now) - Date.parse(failingSince) >= FAILING_LIMIT_MS ? "failing" : null;
    const last = disable !== null || round > RETRY_DELAYS_MS.length;
    await t
      .update(webhookDeliveries)
      .set({
        status: last ? "failed" : "pending",
        attempts,
        last_status_code: tried.status_code,
        next_attempt_at: last ? null : new Date(env.now.getTime() + RETRY_DELAYS_MS[round - 1]).toISOString(),
        finished_at: last ? now : null,
      })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (current?.enabled && disable) {
      await t
        .update(webhookEndpoints)
        .set({ ...pacing, enabled: false, disabled_reason: disable, disabled_at: now, failing_since: failingSince, updated_at: now })
        .where(eq(webhookEndpoints.id, endpoint.id));
      await enqueueJob(t, { clubId: endpoint.club_id, kind: WEBHOOK_DISABLED_MAIL, payload: { endpoint_id: endpoint.id, reason: disable } });
    } else if (current && (!current.failing_since || Object.keys(pacing).length)) {
      await t
        .update(webhookEndpoints)
        .set({ ...pacing, failing_since: failingSince })
        .where(eq(webhookEndpoints.id, endpoint.id));
    }
    // Pushed back on the schedule (the job's own count: a manual retry starts a new one), or failed for good.
    await failJobIn(t, job, env, last ? new PermanentFailure(outcome) : new TemporaryFailure(outcome), RETRY_DELAYS_MS);
  });
  return RECORDED;
}

/** Mails the club's contact (else its owner) that an endpoint was disabled, in the club's language. */
async function runDisabledMail(db: Db, job: JobRow, env: JobEnv): Promise<string> {
  const [endpoint] = await db.read
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, String(job.payload.endpoint_id)))
    .limit(1);
  if (!endpoint) return "endpoint deleted";
  const club = await clubSettings(db.read, endpoint.club_id);
  const [owner] = await db.read
    .select({ email: admins.email })
    .from(admins)
    .where(and(eq(admins.club_id, club.id), eq(admins.role, "owner")))
    .orderBy(asc(admins.created_at))
    .limit(1);
  const to = club.contact_email ?? owner?.email;
  if (!to) return "no contact";
  const text = WEBHOOK_DISABLED_TEXTS[club.locale];
  const reason = job.payload.reason === "gone" ? text.reasons.gone : text.reasons.failing;
  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (m, k: string) => ({ club: club.name, url: endpoint.url, reason, id: endpoint.id })[k] ?? m);
  const host = new URL(env.config.baseUrl).hostname || "localhost";
  const body = fill(text.body);
  const sent = await sendMail(
    { smtpUrl: env.config.smtpUrl, outboxDir: env.config.outboxDir },
    {
      from: `${club.name} <no-reply@${host}>`,
      to,
      subject: fill(text.subject),
      text: body,
      html: `<p>${body.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`,
    },
  );
  return `mailed ${to} (${sent.via})`;
}

export const WEBHOOK_JOBS: JobKinds = {
  [WEBHOOK_DELIVERY]: {
    run: runDelivery,
    orderKey: (job) => `webhook:${String(job.payload.endpoint_id)}`,
    share: (job) => `webhooks:${job.club_id}`,
    retryDelaysMs: RETRY_DELAYS_MS,
    readsOwnStatus: true,
  },
  [WEBHOOK_DISABLED_MAIL]: { run: runDisabledMail },
  // The club's events fanned out to their deliveries, this job's among them (or by another
  // process meanwhile): fanOut deletes each event's row in the transaction of its deliveries.
  [WEBHOOK_FANOUT]: {
    run: async (db, job) => {
      await fanOut(db, job.club_id, job.id);
      return RECORDED;
    },
  },
};

export const WEBHOOK_LOG_PURGE = "webhook_log.purge";
/** How long a finished delivery (and its attempts) stays in the endpoint's delivery log. */
export const DELIVERY_LOG_KEEP_DAYS = 30;

/**
 * The deliveries finished before `before`, found through webhook_deliveries_finished_idx. A pending
 * delivery has no finished_at: it stays, however old, until it succeeds or fails for good.
 */
export const deliveriesFinishedBefore = (before: string) => lt(webhookDeliveries.finished_at, before);

/**
 * Deletes the deliveries finished more than DELIVERY_LOG_KEEP_DAYS before `now` (attempts go with
 * them), in slices; answers how many.
 */
export async function purgeDeliveryLog(db: Db, now: Date, slice = PURGE_SLICE): Promise<number> {
  const before = new Date(now.getTime() - DELIVERY_LOG_KEEP_DAYS * 86_400_000).toISOString();
  return purgeInSlices(db, webhookDeliveries, webhookDeliveries.id, deliveriesFinishedBefore(before), slice);
}

/** Daily: an endpoint's log shows a month of deliveries, and the table does not grow for ever. */
export const deliveryLogPurge = recurringJob(WEBHOOK_LOG_PURGE, 86_400_000, async (db, env) => `${await purgeDeliveryLog(db, env.now)} deliveries purged`);
