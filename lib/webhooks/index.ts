// Webhook endpoints of a club (DESIGN.md section 15): create (the secret shown once), list,
// change, delete, rotate the secret (the old one signs too for 24 h), read the delivery log,
// retry a delivery, send a test event. Reads need access_control:view, writes
// access_control:edit. What is sent, and when, is emit.ts (the outbox) and deliver.ts (the jobs).
import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../../db";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { type Ctx, verb } from "../context";
import { Conflict, NotFound, ValidationFailed } from "../errors";
import { newId, nowIso } from "../ids";
import { fanOutBeforeReading, messageOf, queueDeliveries, requeueDelivery } from "./emit";
import { checkWebhookUrl } from "./guard";
import {
  TEST_EVENT,
  type Webhook,
  type WebhookCreate,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookDeliveryQuery,
  type WebhookList,
  type WebhookSecret,
  type WebhookUpdate,
} from "./schemas";

export * from "./schemas";

/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

function toWebhook(row: EndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason as Webhook["disabled_reason"],
    disabled_at: row.disabled_at,
    failing_since: row.failing_since,
    paused_until: row.paused_until && row.paused_until > nowIso() ? row.paused_until : null,
    previous_secret_expires_at: row.previous_secret_expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The endpoint `id` of the club; 404 WEBHOOK_NOT_FOUND otherwise (another club's too). */
async function getEndpointRow(q: Queryable, clubId: string, id: string): Promise<EndpointRow> {
  const [row] = await q
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.club_id, clubId), eq(webhookEndpoints.id, id)))
    .limit(1);
  if (!row) throw new NotFound("WEBHOOK_NOT_FOUND");
  return row;
}

/**
 * 422 WEBHOOK_URL_NOT_ALLOWED unless `url` passes the guard (guard.ts). A name that does not
 * resolve now is accepted (the receiver may not be set up yet): each delivery checks again. A
 * loopback or private address (a receiver on this machine or the club's network) is told with
 * the setting that allows it, WEBHOOK_ALLOW_PRIVATE (the item's code WEBHOOK_URL_PRIVATE).
 */
async function assertUrlAllowed(ctx: Ctx, url: string): Promise<void> {
  const verdict = await checkWebhookUrl(url, ctx.webhooks);
  if (verdict.ok || verdict.unresolved) return;
  const code = verdict.private ? "WEBHOOK_URL_PRIVATE" : "WEBHOOK_URL_NOT_ALLOWED";
  throw new ValidationFailed([{ loc: ["body", "url"], code, params: { reason: verdict.reason } }], "WEBHOOK_URL_NOT_ALLOWED");
}

/** An admin's retry or test goes out now, even to an endpoint paused after timeouts (they may have just fixed it). */
async function resumeEndpoint(t: Queryable, endpoint: EndpointRow): Promise<void> {
  if (endpoint.paused_until) await t.update(webhookEndpoints).set({ paused_until: null }).where(eq(webhookEndpoints.id, endpoint.id));
}

/** `["*"]` alone when every type is asked for; duplicates dropped. */
const normalEvents = (events: string[]) => (events.includes("*") ? ["*"] : [...new Set(events)]);

/** The club's endpoints, oldest first. */
export const listWebhooks = verb("access_control:view", async function listWebhooks(ctx: Ctx, _input: Record<string, never> = {}): Promise<WebhookList> {
  const rows = await ctx.db.read
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.club_id, ctx.clubId))
    .orderBy(asc(webhookEndpoints.created_at), asc(webhookEndpoints.id));
  return { items: rows.map(toWebhook) };
});

/** Creates an endpoint and answers it with its secret (shown this once). 422 WEBHOOK_URL_NOT_ALLOWED (guard.ts). */
export const createWebhook = verb("access_control:edit", async function createWebhook(ctx: Ctx, input: WebhookCreate): Promise<WebhookCreated> {
  await assertUrlAllowed(ctx, input.url);
  const now = nowIso();
  const secret = newSecret();
  const [row] = await ctx.db.tx((t) =>
    t
      .insert(webhookEndpoints)
      .values({
        id: newId(),
        club_id: ctx.clubId,
        url: input.url,
        description: input.description ?? null,
        events: normalEvents(input.events),
        secret,
        enabled: true,
        created_at: now,
        updated_at: now,
      })
      .returning(),
  );
  return { ...toWebhook(row), secret };
});

type WebhookRef = { webhook_id: string };

/** Changes url, events, description or enabled; enabling again forgets the failures. 404, 422 WEBHOOK_URL_NOT_ALLOWED. */
export const updateWebhook = verb("access_control:edit", async function updateWebhook(ctx: Ctx, input: WebhookUpdate & WebhookRef): Promise<Webhook> {
  if (input.url !== undefined) await assertUrlAllowed(ctx, input.url);
  return ctx.db.tx(async (t) => {
    const current = await getEndpointRow(t, ctx.clubId, input.webhook_id);
    const set: Partial<EndpointRow> = {};
    // Another address is another far end: its predecessor's timeouts say nothing of it.
    if (input.url !== undefined) set.url = input.url;
    if (input.url !== undefined && input.url !== current.url) Object.assign(set, { timeouts: 0, paused_until: null });
    if (input.events !== undefined) set.events = normalEvents(input.events);
    if (input.description !== undefined) set.description = input.description;
    if (input.enabled === true && !current.enabled)
      Object.assign(set, { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null, timeouts: 0, paused_until: null });
    if (input.enabled === false && current.enabled) Object.assign(set, { enabled: false, disabled_reason: "manual", disabled_at: nowIso() });
    if (!Object.keys(set).length) return toWebhook(current);
    const [row] = await t
      .update(webhookEndpoints)
      .set({ ...set, updated_at: nowIso() })
      .where(eq(webhookEndpoints.id, current.id))
      .returning();
    return toWebhook(row);
  });
});

/** Deletes the endpoint with its delivery log; its pending deliveries are not sent. 404. */
export const deleteWebhook = verb("access_control:edit", async function deleteWebhook(ctx: Ctx, input: { webhook_id: string }): Promise<void> {
  await ctx.db.tx(async (t) => {
    const current = await getEndpointRow(t, ctx.clubId, input.webhook_id);
    await t.delete(webhookEndpoints).where(eq(webhookEndpoints.id, current.id));
  });
});

/** A new secret; the current one keeps signing (a second signature) for 24 h, so receivers can switch without losing a message. */
export const rotateWebhookSecret = verb("access_control:edit", async function rotateWebhookSecret(ctx: Ctx, input: WebhookRef): Promise<WebhookSecret> {
  return ctx.db.tx(async (t) => {
    const current = await getEndpointRow(t, ctx.clubId, input.webhook_id);
    const secret = newSecret();
    const expires = new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString();
    await t
      .update(webhookEndpoints)
      .set({ secret, previous_secret: current.secret, previous_secret_expires_at: expires, updated_at: nowIso() })
      .where(eq(webhookEndpoints.id, current.id));
    return { secret, previous_secret_expires_at: expires };
  });
});

async function deliveriesWithAttempts(q: Queryable, rows: (typeof webhookDeliveries.$inferSelect)[]): Promise<WebhookDelivery[]> {
  if (!rows.length) return [];
  const attempts = await q
    .select()
    .from(webhookAttempts)
    .where(
      inArray(
        webhookAttempts.delivery_id,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(webhookAttempts.created_at), asc(webhookAttempts.id));
  const byDelivery = new Map<string, (typeof attempts)[number][]>();
  for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
  return rows.map((r) => ({
    id: r.id,
    msg_id: r.msg_id,
    type: r.type,
    status: r.status as WebhookDelivery["status"],
    attempt_count: r.attempts,
    next_attempt_at: r.status === "pending" ? r.next_attempt_at : null,
    last_status_code: r.last_status_code,
    payload: JSON.parse(r.payload),
    attempts: (byDelivery.get(r.id) ?? []).map(({ delivery_id: _, ...a }) => a),
    created_at: r.created_at,
    finished_at: r.finished_at,
  }));
}

/** The endpoint's deliveries, newest first, each with its attempts. 404. */
export const listWebhookDeliveries = verb(
  "access_control:view",
  async function listWebhookDeliveries(ctx: Ctx, input: Partial<WebhookDeliveryQuery> & { webhook_id: string }): Promise<WebhookDeliveryList> {
    const endpoint = await getEndpointRow(ctx.db.read, ctx.clubId, input.webhook_id);
    // Events the worker has not fanned out yet are listed too, as their pending deliveries.
    await fanOutBeforeReading(ctx.db, ctx.clubId);
    const where = [eq(webhookDeliveries.endpoint_id, endpoint.id)];
    if (input.status) where.push(eq(webhookDeliveries.status, input.status));
    const rows = await ctx.db.read
      .select()
      .from(webhookDeliveries)
      .where(and(...where))
      .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
      .limit(input.limit ?? 50);
    return { items: await deliveriesWithAttempts(ctx.db.read, rows) };
  },
);

async function oneDelivery(q: Queryable, id: string): Promise<WebhookDelivery> {
  const rows = await q.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return (await deliveriesWithAttempts(q, rows))[0];
}

/**
 * Sends a delivery again now, whatever its state, with a new retry schedule (the job it had, if
 * any, stands down). 404 for an unknown delivery or endpoint; 409 WEBHOOK_DISABLED.
 */
export const retryWebhookDelivery = verb(
  "access_control:edit",
  async function retryWebhookDelivery(ctx: Ctx, input: { webhook_id: string; delivery_id: string }): Promise<WebhookDelivery> {
    return ctx.db.tx(async (t) => {
      const endpoint = await getEndpointRow(t, ctx.clubId, input.webhook_id);
      if (!endpoint.enabled) throw new Conflict("WEBHOOK_DISABLED");
      const [delivery] = await t
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpoint_id, endpoint.id), eq(webhookDeliveries.id, input.delivery_id)))
        .limit(1);
      if (!delivery) throw new NotFound("WEBHOOK_DELIVERY_NOT_FOUND");
      await resumeEndpoint(t, endpoint);
      await requeueDelivery(t, endpoint, delivery.id);
      return oneDelivery(t, delivery.id);
    });
  },
);

/** Queues a `webhook.test` event to the endpoint, whatever types it asked for. 404; 409 WEBHOOK_DISABLED. */
export const testWebhook = verb("access_control:edit", async function testWebhook(ctx: Ctx, input: { webhook_id: string }): Promise<WebhookDelivery> {
  return ctx.db.tx(async (t) => {
    const endpoint = await getEndpointRow(t, ctx.clubId, input.webhook_id);
    if (!endpoint.enabled) throw new Conflict("WEBHOOK_DISABLED");
    await resumeEndpoint(t, endpoint);
    const message = { type: TEST_EVENT, ...messageOf(TEST_EVENT, { webhook_id: endpoint.id, club_id: ctx.clubId, message: "This is a test event." }) };
    const [id] = await queueDeliveries(ctx.db, t, [endpoint], message);
    return oneDelivery(t, id);
  });
});
