// The dashboard's webhooks pages through app.handle: an endpoint added (its secret shown once),
// its test event delivered to a local receiver by the job queue and listed with its status code,
// edited, disabled and enabled, its secret rotated, a delivery retried, the endpoint deleted;
// the API's refusals shown; a read-only admin sees no action and is refused a post.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { JOB_KINDS } from "../../server/jobs";
import { setup } from "../helpers";
import { browser, type Env } from "./helpers";

let env: Env;
let owner: ReturnType<typeof browser>;
let receiver: ReturnType<typeof Bun.serve>;
const received: string[] = [];

beforeAll(async () => {
  receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      received.push(await req.text());
      return new Response("ok", { status: 200 });
    },
  });
  env = await setup({ WEBHOOK_ALLOW_PRIVATE: "true" });
  owner = browser(env);
  await owner.signIn();
});
afterAll(async () => {
  await env.close();
  receiver.stop(true);
});

const endpoint = async (id: string) => (await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0];

describe("webhooks", () => {
  let id = "";

  it("adds an endpoint and shows its secret once", async () => {
    const url = `http://127.0.0.1:${receiver.port}/hook`;
    const res = await owner.post("/admin/webhooks", { url, description: "Newsletter", events: ["member.created", "payment.recorded"] }, "/admin/webhooks");
    expect(res.status).toBe(201);
    const secret = res.text.match(/<code id="secret-value">(whsec_[^<]+)<\/code>/)?.[1];
    expect(secret).toBeDefined();
    const [row] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.club_id, env.clubId));
    id = row.id;
    expect(row.events).toEqual(["member.created", "payment.recorded"]);
    expect(row.secret).toBe(secret!);
    const page = await owner.request("GET", `/admin/webhooks/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(secret!);
    const list = await owner.request("GET", "/admin/webhooks");
    expect(list.text).toContain(`/admin/webhooks/${id}`);
    expect(list.text).toContain("member.created, payment.recorded");
  });

  it("refuses a URL the API refuses, and no event chosen, keeping what was typed", async () => {
    const bad = await owner.post("/admin/webhooks", { url: "pas une adresse", events: "*" }, "/admin/webhooks");
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('id="new-url-error"');
    expect(bad.text).toContain('value="pas une adresse"');
    const none = await owner.post("/admin/webhooks", { url: "https://hooks.example.org/x" }, "/admin/webhooks");
    expect(none.status).toBe(422);
    expect(none.text).toContain('id="new-events-error"');
  });

  it("sends a test event: the delivery is listed, then delivered with its status code", async () => {
    const res = await owner.post(`/admin/webhooks/${id}/test`, {}, `/admin/webhooks/${id}`);
    expect(res.status).toBe(303);
    let page = await owner.request("GET", res.headers.get("location")!);
    expect(page.text).toContain("Événement de test mis en file d&#x27;envoi.");
    expect(page.text).toContain("<code>webhook.test</code>");
    expect(page.text).toContain("En attente");
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + 60_000) });
    expect(received.some((body) => body.includes("webhook.test"))).toBe(true);
    page = await owner.request("GET", `/admin/webhooks/${id}?status=succeeded`);
    expect(page.text).toContain("Réussi");
    expect(page.text).toMatch(/<td class="num" data-label="Dernier code">200<\/td>/);
    // Retried: pending again, with a new attempt to come.
    const [delivery] = await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, id));
    const retried = await owner.post(`/admin/webhooks/${id}/deliveries/${delivery.id}/retry`, {}, `/admin/webhooks/${id}`);
    expect(retried.status).toBe(303);
    expect((await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0].status).toBe("pending");
  });

  it("edits, disables (no test then: 409 shown) and enables the endpoint", async () => {
    const edited = await owner.post(
      `/admin/webhooks/${id}`,
      { url: `http://127.0.0.1:${receiver.port}/other`, description: "", events: "*" },
      `/admin/webhooks/${id}`,
    );
    expect(edited.status).toBe(303);
    let row = await endpoint(id);
    expect(row.url).toEndWith("/other");
    expect(row.events).toEqual(["*"]);
    expect(row.description).toBeNull();
    expect((await owner.post(`/admin/webhooks/${id}/disable`, {}, `/admin/webhooks/${id}`)).status).toBe(303);
    row = await endpoint(id);
    expect(row.enabled).toBe(false);
    const page = await owner.request("GET", `/admin/webhooks/${id}`);
    expect(page.text).toContain("Désactivé (par un admin)");
    expect(page.text).not.toContain(`/admin/webhooks/${id}/test`);
    const test = await owner.post(`/admin/webhooks/${id}/test`, {}, `/admin/webhooks/${id}`);
    expect(test.status).toBe(409);
    expect(test.text).toContain('role="alert"');
    expect((await owner.post(`/admin/webhooks/${id}/enable`, {}, `/admin/webhooks/${id}`)).status).toBe(303);
    expect((await endpoint(id)).enabled).toBe(true);
  });

  it("rotates the secret, showing the new one once", async () => {
    const before = (await endpoint(id)).secret;
    const res = await owner.post(`/admin/webhooks/${id}/rotate`, {}, `/admin/webhooks/${id}`);
    expect(res.status).toBe(200);
    const after = await endpoint(id);
    expect(after.secret).not.toBe(before);
    expect(res.text).toContain(`<code id="secret-value">${after.secret}</code>`);
  });

  it("hides every action from a read-only admin, and refuses their posts (403)", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const list = await viewer.request("GET", "/admin/webhooks");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('action="/admin/webhooks"');
    const page = await viewer.request("GET", `/admin/webhooks/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('method="post" action="/admin/webhooks/');
    expect((await viewer.post(`/admin/webhooks/${id}/delete`, {}, "/admin/webhooks")).status).toBe(403);
    expect(await endpoint(id)).toBeDefined();
  });

  it("deletes the endpoint", async () => {
    const res = await owner.post(`/admin/webhooks/${id}/delete`, {}, `/admin/webhooks/${id}`);
    expect(res.status).toBe(303);
    expect(await endpoint(id)).toBeUndefined();
    expect((await owner.request("GET", `/admin/webhooks/${id}`)).status).toBe(404);
  });
});

describe("notices", () => {
  it("show only the page's own: `?done=constructor` is no notice", async () => {
    expect((await owner.request("GET", "/admin/webhooks?done=constructor")).text).not.toContain('class="notice');
    expect((await owner.request("GET", "/admin/webhooks?done=deleted")).text).toContain('class="notice');
  });
});
