// The outbox of webhooks (DESIGN.md section 15): `emit` is called by the lib/ verb that makes a
// change, inside its transaction, and writes ONE row for the event (a job of kind WEBHOOK_FANOUT:
// its message and the endpoints, enabled and subscribed to its type at that moment, it goes to).
// The worker, off the request, fans it out into one delivery row per endpoint with the job that
// sends it, many events in one transaction (`fanOut`). So the event exists if and only if the
// change committed, a crash after the commit loses nothing (the fan-out is still pending when a
// worker starts again), and a request pays for one row instead of two per endpoint (docs/
// benchmarks.md "hooks18"). This module sits low (db, ids, jobs only) so that any area may emit.
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { type Db, inPieces, type Queryable, readAhead } from "../../db";
import { jobs, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { newId, nowIso } from "../ids";
import { enqueueJob } from "../jobs";
import type { EventType } from "./schemas";

/** The job kind that sends one delivery (lib/webhooks/deliver.ts). */
export const WEBHOOK_DELIVERY = "webhook_delivery";
/**
 * The job kind of one event not yet fanned out: payload `{msg_id, type, body, endpoints}`. Its
 * literal is also in the partial index jobs_webhook_fanout_pending_idx (db/schema.ts).
 */
export const WEBHOOK_FANOUT = "webhook_fanout";
/** Events fanned out per transaction: their deliveries and jobs commit together. */
export const FANOUT_BATCH = 100;
/** What a fan-out's job carries: the message as it will be signed, and whom it goes to. */
type Fanout = { msg_id: string; type: string; body: string; endpoints: string[] };

type EndpointRef = { id: string; club_id: string };

/** The body `{type, timestamp, data}` as sent (and signed), and its message id. */
export function messageOf(type: string, data: unknown, at = nowIso()): { msgId: string; payload: string } {
  return { msgId: `msg_${newId().replace(/-/g, "")}`, payload: JSON.stringify({ type, timestamp: at, data }) };
}

const deliveryJob = (t: Queryable, endpoint: EndpointRef, deliveryId: string) =>
  enqueueJob(t, { clubId: endpoint.club_id, kind: WEBHOOK_DELIVERY, payload: { delivery_id: deliveryId, endpoint_id: endpoint.id } });

/**
 * The rows a message writes per endpoint, in one statement each (a job, a delivery) whatever the
 * number of endpoints up to the largest piece: a creation with 3 endpoints ran 6 inserts, each
 * with its own bind and step (docs/benchmarks.md "hooks16"). One statement per size, kept
 * prepared (Db.prepareTx); counts between sizes take a few pieces (`inPieces`).
 */
const PIECES = [8, 4, 3, 2, 1] as const;

/** The statements of the outbox, prepared once (Db.prepareTx): every write of a club with webhooks runs them. */
function statements(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return {
    endpoints: db.prepareTx("webhooks.emit.endpoints", (q) =>
      q
        .select({ id: webhookEndpoints.id, club_id: webhookEndpoints.club_id, events: webhookEndpoints.events })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.club_id, p("club")), eq(webhookEndpoints.enabled, true))),
    ),
    /** An event's one row at its change: placeholders id, club, payload, now. */
    fanout: db.prepareTx("webhooks.emit.fanout", (q) =>
      q.insert(jobs).values({
        id: p("id"),
        club_id: p("club"),
        kind: WEBHOOK_FANOUT,
        payload: p("payload"),
        status: "pending",
        run_after: p("now"),
        created_at: p("now"),
      }),
    ),
    /**
     * Deletes the club's oldest FANOUT_BATCH events still pending, and answers them: what this
     * transaction fans out (the event's row is used up by its deliveries: no finished row is
     * rewritten with its body, and none is left for the purge). Of two processes (or a worker and
     * a read of the log) taking the same events at once, one gets each: PostgreSQL's second
     * DELETE waits for the first's commit and then finds the rows gone; SQLite runs one writer at
     * a time. The literals let both engines use the partial index.
     */
    take: db.prepareTx("webhooks.emit.take", (q) =>
      q
        .delete(jobs)
        .where(
          inArray(
            jobs.id,
            q
              .select({ id: jobs.id })
              .from(jobs)
              .where(and(eq(jobs.club_id, p("club")), sql`${jobs.kind} = 'webhook_fanout' and ${jobs.status} = 'pending'`))
              .orderBy(asc(jobs.run_after), asc(jobs.id))
              .limit(FANOUT_BATCH),
          ),
        )
        .returning({ id: jobs.id, payload: jobs.payload, run_after: jobs.run_after }),
    ),
    /** Whether the club has an event not yet fanned out (the partial index: no pending delivery passed). */
    anyPending: db.prepareRead("webhooks.emit.any-pending", (q) =>
      q
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.club_id, p("club")), sql`${jobs.kind} = 'webhook_fanout' and ${jobs.status} = 'pending'`))
        .limit(1),
    ),
    /** The club's endpoints that still exist (a deleted one's events are dropped with its log). */
    existing: db.prepareTx("webhooks.emit.existing", (q) =>
      q
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.club_id, p("club"))),
    ),
    /** `n` jobs: placeholders id<i>, club<i>, payload<i>, and now. */
    jobs: (n: number) =>
      db.prepareTx(`webhooks.emit.jobs:${n}`, (q) =>
        q.insert(jobs).values(
          Array.from({ length: n }, (_, i) => ({
            id: p(`id${i}`),
            club_id: p(`club${i}`),
            kind: WEBHOOK_DELIVERY,
            payload: p(`payload${i}`),
            status: "pending",
            run_after: p("now"),
            created_at: p("now"),
          })),
        ),
      ),
    /** `n` deliveries of one message: placeholders id<i>, club<i>, endpoint<i>, job<i>, and msg, type, payload, now. */
    deliveries: (n: number) =>
      db.prepareTx(`webhooks.emit.deliveries:${n}`, (q) =>
        q.insert(webhookDeliveries).values(
          Array.from({ length: n }, (_, i) => ({
            id: p(`id${i}`),
            club_id: p(`club${i}`),
            endpoint_id: p(`endpoint${i}`),
            msg_id: p("msg"),
            type: p("type"),
            payload: p("payload"),
            status: "pending",
            attempts: 0,
            next_attempt_at: p("now"),
            job_id: p(`job${i}`),
            created_at: p("now"),
          })),
        ),
      ),
  };
}

/**
 * Queues `message` for each of `endpoints`, inside the transaction `t`: the delivery
 * rows and the jobs that send them, made and due at `now` (a fanned-out event's time, so that an
 * endpoint's deliveries keep the order of their events). Returns the deliveries' ids, in the
 * order of `endpoints`.
 */
export async function queueDeliveries(
  db: Db,
  t: Queryable,
  endpoints: EndpointRef[],
  message: { type: string; msgId: string; payload: string },
  now = nowIso(),
): Promise<string[]> {
  const q = statements(db);
  const rows = endpoints.map((endpoint) => ({ endpoint, id: newId(), job: newId() }));
  for (const piece of inPieces(rows, PIECES)) {
    const jobValues: Record<string, unknown> = { now };
    const deliveryValues: Record<string, unknown> = { now, msg: message.msgId, type: message.type, payload: message.payload };
    piece.forEach(({ endpoint, id, job }, i) => {
      Object.assign(jobValues, { [`id${i}`]: job, [`club${i}`]: endpoint.club_id, [`payload${i}`]: { delivery_id: id, endpoint_id: endpoint.id } });
      Object.assign(deliveryValues, { [`id${i}`]: id, [`club${i}`]: endpoint.club_id, [`endpoint${i}`]: endpoint.id, [`job${i}`]: job });
    });
    // The jobs first: each delivery row names its job.
    await q.jobs(piece.length)(t).execute(jobValues);
    await q.deliveries(piece.length)(t).execute(deliveryValues);
  }
  return rows.map((r) => r.id);
}

/** Makes delivery `deliveryId` pending again with a new job (a manual retry); the job it had stands down. */
export async function requeueDelivery(t: Queryable, endpoint: EndpointRef, deliveryId: string): Promise<void> {
  const jobId = await deliveryJob(t, endpoint, deliveryId);
  await t
    .update(webhookDeliveries)
    .set({ status: "pending", job_id: jobId, next_attempt_at: nowIso(), finished_at: null })
    .where(eq(webhookDeliveries.id, deliveryId));
}

/** Emits, inside one transaction, events of club `clubId` to the endpoints read once (an import's batch). */
export type Emitter = {
  /** Whether an enabled endpoint asked for `type`: when none does, the caller need not build the data. */
  wants(type: EventType): boolean;
  emit(type: EventType, data: () => unknown | Promise<unknown>): Promise<void>;
};

/**
 * Reads the club's enabled endpoints once, for the events of the transaction `t`. On PostgreSQL
 * the read leaves with `t`'s next statement (db/index.ts `readAhead`): a caller that starts it
 * before a write and awaits it after saves a round trip; one that awaits it at once waits no
 * longer than before (it then leaves alone).
 */
export async function emitter(db: Db, t: Queryable, clubId: string): Promise<Emitter> {
  const statement = statements(db).endpoints(t);
  const ahead = readAhead(t, statement, { club: clubId });
  const rows = ahead
    ? (await ahead).map(([id, club_id, events]) => ({ id: id as string, club_id: club_id as string, events: events as string | string[] }))
    : await statement.execute({ club: clubId });
  const endpoints = rows.map((e) => ({
    ...e,
    events: typeof e.events === "string" ? (JSON.parse(e.events) as string[]) : e.events,
  }));
  const wanting = (type: EventType) => endpoints.filter((e) => e.events.includes(type) || e.events.includes("*"));
  return {
    wants: (type) => wanting(type).length > 0,
    async emit(type, data) {
      const wanted = wanting(type);
      if (!wanted.length) return;
      const { msgId, payload } = messageOf(type, await data());
      const fanout: Fanout = { msg_id: msgId, type, body: payload, endpoints: wanted.map((e) => e.id) };
      await statements(db).fanout(t).execute({ id: newId(), club: clubId, payload: fanout, now: nowIso() });
    },
  };
}

/**
 * Fans out, inside `t`, the club's oldest FANOUT_BATCH events not yet fanned out: one delivery
 * and its job per endpoint the event named, made at the event's time. An endpoint deleted since
 * gets nothing (its log went with it); one disabled since gets its delivery, which then fails
 * unsent as any delivery of a disabled endpoint does. Answers the ids of the events' jobs it
 * took: fewer than FANOUT_BATCH when none is left (or another process took them).
 */
export async function fanOutIn(db: Db, t: Queryable, clubId: string): Promise<string[]> {
  const q = statements(db);
  const taken = await q.take(t).execute({ club: clubId });
  if (!taken.length) return [];
  const existing = new Set((await q.existing(t).execute({ club: clubId })).map((e) => e.id));
  // In the order of the events: their time, then their ids (UUIDv7, increasing within a
  // process), for the events of one transaction made in the same millisecond (an import's).
  // RETURNING gives the rows in no set order on PostgreSQL.
  const key = (r: { run_after: string; id: string }) => `${r.run_after} ${r.id}`;
  taken.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  for (const row of taken) {
    const event = (typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload) as Fanout;
    const endpoints = event.endpoints.filter((id) => existing.has(id)).map((id) => ({ id, club_id: clubId }));
    if (endpoints.length) await queueDeliveries(db, t, endpoints, { type: event.type, msgId: event.msg_id, payload: event.body }, row.run_after);
  }
  return taken.map((row) => row.id);
}

/** Fans out, inside `t`, every event of the club still pending (an erasure, before it forgets what mentions the member). */
export async function fanOutAllIn(db: Db, t: Queryable, clubId: string): Promise<void> {
  while ((await fanOutIn(db, t, clubId)).length === FANOUT_BATCH);
}

/**
 * Fans out the club's pending events, a batch per transaction, until none is left or, given
 * `until`, once that event's job was taken (a fan-out job's own run: events keep coming while a
 * club's load lasts, and the later ones have jobs of their own). Answers how many it took.
 */
export async function fanOut(db: Db, clubId: string, until?: string): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await db.tx((t) => fanOutIn(db, t, clubId));
    total += ids.length;
    if (ids.length < FANOUT_BATCH || (until !== undefined && ids.includes(until))) return total;
  }
}

/**
 * Fans out the club's pending events, if it has any, before its delivery log is read: a
 * delivery is listed (pending) right after the change that made its event, whether or not the
 * worker has come to it yet. One indexed read when there are none.
 */
export async function fanOutBeforeReading(db: Db, clubId: string): Promise<void> {
  if ((await statements(db).anyPending.execute({ club: clubId })).length) await fanOut(db, clubId);
}

/**
 * Emits `type` for club `clubId`, inside the transaction `t`, beside the change: each enabled endpoint that asked for it (or for `*`) gets a delivery of
 * `{type, timestamp, data}`. `data` is the object as the API shows it, built only when some
 * endpoint wants it (a club without webhooks pays one indexed read per change).
 */
export async function emit(db: Db, t: Queryable, clubId: string, type: EventType, data: () => unknown | Promise<unknown>): Promise<void> {
  await (await emitter(db, t, clubId)).emit(type, data);
}

/**
 * GDPR erasure (DESIGN.md section 12): the club's deliveries whose body mentions one of `texts`
 * (an erased member's email, their id) keep their type and time but lose their data, sent or
 * not: a delivery still to go goes out as `{"erased": true}`, so the receiver's sequence stays
 * whole and nothing personal is left in the log.
 */
export async function forgetDeliveriesMentioning(t: Queryable, clubId: string, texts: string[]): Promise<number> {
  const mentions = texts.filter(Boolean).map((text) => {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql`lower(${webhookDeliveries.payload}) like ${pattern} escape '\\'`;
  });
  if (!mentions.length) return 0;
  const rows = await t
    .select({ id: webhookDeliveries.id, payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.club_id, clubId), or(...mentions)));
  for (const row of rows) {
    const { type, timestamp } = JSON.parse(row.payload) as { type: string; timestamp: string };
    await t
      .update(webhookDeliveries)
      .set({ payload: JSON.stringify({ type, timestamp, data: { erased: true } }) })
      .where(eq(webhookDeliveries.id, row.id));
  }
  return rows.length;
}
