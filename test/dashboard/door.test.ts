// The dashboard's door through app.handle: a typed code checked in (valid, then already, then a
// code that names nobody), as the form's page and as the script's JSON; the nonce of a resend;
// what the database holds; the scopes (a read-only admin neither opens it nor posts to it); the
// door's script and the bundled QR decoder served from this process.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { checkIns } from "../../db/schema";
import { createEventVia, inDaysAt, insertRegistration, registrationRow } from "../events-fixtures";
import { browser, type DashBrowser, type Env, ownerSignedIn } from "./helpers";

let env: Env;
let owner: DashBrowser;
let event: { id: string; title: string; tickets: { id: string }[] };
let door: string;
beforeAll(async () => {
  ({ env, owner } = await ownerSignedIn());
  event = await createEventVia(env, { title: "Concert", tickets: [{ name: "Standard", member_price_cents: 0, non_member_price_cents: 0 }] });
  door = `/admin/door/${event.id}`;
});
afterAll(() => env.close());

const json = { accept: "application/json" };

describe("the door", () => {
  it("shows the screen with its counts, the typed code's form and the script", async () => {
    const page = await owner.request("GET", door);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Entrée · Concert");
    expect(page.text).toContain("0 entré sur 0 inscrit");
    expect(page.text).toContain('<label for="f-code">');
    expect(page.text).toMatch(/<script src="\/admin\/assets\/door\.js\?v=[0-9a-f]{12}" defer><\/script>/);
    const script = await owner.request("GET", page.text.match(/\/admin\/assets\/door\.js\?v=[0-9a-f]+/)![0]);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    const decoder = await owner.request("GET", page.text.match(/\/admin\/assets\/jsQR\.js\?v=[0-9a-f]+/)![0]);
    expect(decoder.status).toBe(200);
    expect(decoder.text).toContain("jsQR");
  });

  it("checks a typed code in: valid with the name, then already (the form's page)", async () => {
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, first: "Ada" });
    const first = await owner.post(door, { code: reg.qr_token, nonce: "n-1" }, door);
    expect(first.status).toBe(200);
    expect(first.text).toContain('class="verdict verdict-valid"');
    expect(first.text).toContain("Valide");
    expect(first.text).toContain("Ada Hopper");
    expect((await registrationRow(env, reg.id)).checked_in_at).not.toBeNull();
    const again = await owner.post(door, { code: reg.qr_token, nonce: "n-2" }, door);
    expect(again.text).toContain('class="verdict verdict-already"');
    expect(again.text).toContain("Déjà entré·e");
    expect(again.text).toContain("Entré·e à");
    const unknown = await owner.post(door, { code: "NO-SUCH-CODE", nonce: "n-3" }, door);
    expect(unknown.text).toContain('class="verdict verdict-not_registered"');
    expect(unknown.text).toContain('<p class="v-detail">NO-SUCH-CODE</p>');
    const scans = await env.db.read.select().from(checkIns).where(eq(checkIns.event_id, event.id));
    expect(scans.map((s) => s.verdict).sort()).toEqual(["already", "not_registered", "valid"]);
  });

  it("answers the script in JSON; a resend with the same nonce gets the same answer and checks in once", async () => {
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, first: "Bea" });
    const page = await owner.request("GET", door);
    const send = (nonce: string) => owner.request("POST", door, { form: { _csrf: owner.csrfOf(page), code: reg.qr_token, nonce }, headers: json });
    const first = await send("offline-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toContain("application/json");
    expect(JSON.parse(first.text)).toMatchObject({ kind: "valid", title: "Valide", name: "Bea Hopper", detail: "Standard" });
    expect(JSON.parse((await send("offline-1")).text)).toMatchObject({ kind: "valid" });
    expect(JSON.parse((await send("offline-2")).text)).toMatchObject({ kind: "already", title: "Déjà entré·e" });
    const scans = await env.db.read.select().from(checkIns).where(eq(checkIns.registration_id, reg.id));
    expect(scans.length).toBe(2);
  });

  it("answers the script's refusals in JSON with the club's message (an empty code, a cancelled event)", async () => {
    const page = await owner.request("GET", door);
    const empty = await owner.request("POST", door, { form: { _csrf: owner.csrfOf(page), code: "" }, headers: json });
    expect(empty.status).toBe(422);
    expect(JSON.parse(empty.text).error).toMatch(/.+/);
    const cancelled = await createEventVia(env, { title: "Off" });
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${cancelled.id}`, { body: { status: "cancelled" } });
    const res = await owner.request("POST", `/admin/door/${cancelled.id}`, { form: { _csrf: owner.csrfOf(page), code: "X" }, headers: json });
    expect(res.status).toBe(409);
    expect(JSON.parse(res.text).error).toMatch(/annulé/i);
  });

  it("lists the upcoming published events to choose a door from, not a past one nor a draft", async () => {
    const past = await createEventVia(env, { title: "Hier", starts_at: inDaysAt(-2) });
    const draft = await createEventVia(env, { title: "Brouillon" });
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${draft.id}`, { body: { status: "draft" } });
    const page = await owner.request("GET", "/admin/door");
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="${door}"`);
    expect(page.text).not.toContain(`/admin/door/${past.id}`);
    expect(page.text).not.toContain(`/admin/door/${draft.id}`);
  });

  it("refuses a read-only admin the door and their scans (403): nothing is checked in", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, first: "Cy" });
    expect((await viewer.request("GET", door)).status).toBe(403);
    expect((await viewer.request("GET", "/admin/events")).text).not.toContain('href="/admin/door"');
    expect((await viewer.post(door, { code: reg.qr_token }, "/admin/events")).status).toBe(403);
    expect((await registrationRow(env, reg.id)).checked_in_at).toBeNull();
  });
});
