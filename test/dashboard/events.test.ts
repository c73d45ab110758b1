// The dashboard's events pages through app.handle: the list by tab, creating an event with its
// tickets (and as a draft), editing it (a removed ticket, a kept one), its status moves and
// delete, and on its page the registrations: add one (a member by email), confirm it with the
// payment, cancel one with a refund, the waiting list in its order; what the database then
// holds; a read-only admin who sees no edit action and is refused on a post.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { fanOut } from "../../lib/webhooks/emit";
import { eventRegistrations, events, eventTickets, invoices, webhookDeliveries } from "../../db/schema";
import { localToUtc } from "../../lib/clubs/time-zone";
import { createEventVia, inDaysAt, insertRegistration, insertTier, registrationPayments, registrationRow } from "../events-fixtures";
import { seedMember } from "../members-fixtures";
import { browser, type DashBrowser, type Env, ownerSignedIn } from "./helpers";

let env: Env;
let owner: DashBrowser;
// Private addresses allowed: a webhook endpoint on this machine records what is announced.
beforeAll(async () => ({ env, owner } = await ownerSignedIn({ WEBHOOK_ALLOW_PRIVATE: "true" })));
afterAll(() => env.close());

const NEW = "/admin/events/new";
const eventRow = async (id: string) => (await env.db.read.select().from(events).where(eq(events.id, id)))[0];
const ticketsOf = async (id: string) => env.db.read.select().from(eventTickets).where(eq(eventTickets.event_id, id));
const regsOf = async (id: string) =>
  env.db.read
    .select()
    .from(eventRegistrations)
    .where(eq(eventRegistrations.event_id, id))
    .orderBy(asc(eventRegistrations.created_at), asc(eventRegistrations.id));
const idFrom = (location: string | null) => location!.match(/events\/([0-9a-f-]{36})/)![1];

const eventForm = (over: Record<string, string> = {}) => ({
  title: "Fondue <night>",
  starts_at: inDaysAt(30, "18:30").slice(0, 16),
  ends_at: inDaysAt(30, "23:00").slice(0, 16),
  location_name: "Club house",
  capacity: "40",
  access: "public",
  max_per_email: "2",
  listed: "yes",
  waitlist_enabled: "yes",
  publish: "yes",
  t0_name: "Guest",
  t0_member: "0",
  t0_nonmember: "25,00",
  t0_qty: "",
  t1_name: "",
  t1_member: "",
  t1_nonmember: "",
  t1_qty: "",
  ...over,
});

describe("events list and form", () => {
  it("says beside the member price that empty is free for members, and saves an empty one as 0", async () => {
    const form = await owner.request("GET", NEW);
    expect(form.text).toContain('aria-describedby="f-t0_member-hint"');
    expect(form.text).toContain('<p id="f-t0_member-hint" class="muted">Vide ou 0 : gratuit pour les membres.</p>');
    const res = await owner.post(NEW, eventForm({ title: "Membres gratis", t0_member: "", t0_nonmember: "15" }), NEW);
    expect(res.status).toBe(303);
    const tickets = await ticketsOf(idFrom(res.headers.get("location")));
    expect(tickets.map((t) => [t.member_price_cents, t.non_member_price_cents])).toEqual([[0, 1500]]);
  });

  it("reads a ticket price written with the currency (CHF 10), and says how to type one it cannot read", async () => {
    const bad = await owner.post(NEW, eventForm({ title: "Prix illisible", t0_nonmember: "dix francs" }), NEW);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("Saisissez un montant comme 50 ou 50.00.");
    expect(bad.text).not.toContain("nombre attendu");
    const res = await owner.post(NEW, eventForm({ title: "Prix en francs", t0_member: "CHF 5.-", t0_nonmember: "CHF 10" }), NEW);
    expect(res.status).toBe(303);
    const tickets = await ticketsOf(idFrom(res.headers.get("location")));
    expect(tickets.map((t) => [t.member_price_cents, t.non_member_price_cents])).toEqual([[500, 1000]]);
  });

  it("creates a published event with its tickets, shown in upcoming and escaped", async () => {
    const res = await owner.post(NEW, eventForm(), NEW);
    expect(res.status).toBe(303);
    const id = idFrom(res.headers.get("location"));
    expect(await eventRow(id)).toMatchObject({
      title: "Fondue <night>",
      status: "published",
      capacity: 40,
      max_per_email: 2,
      waitlist_enabled: true,
      listed: true,
    });
    // Typed on the club's wall clock (Europe/Zurich: a club without a country), stored in UTC.
    expect((await eventRow(id)).starts_at).toBe((localToUtc(inDaysAt(30, "18:30").slice(0, 16), "Europe/Zurich") as { iso: string }).iso);
    const tickets = await ticketsOf(id);
    expect(tickets.map((t) => [t.name, t.member_price_cents, t.non_member_price_cents, t.quantity_max])).toEqual([["Guest", 0, 2500, null]]);
    const list = await owner.request("GET", "/admin/events");
    expect(list.status).toBe(200);
    expect(list.text).toContain("Fondue &lt;night&gt;");
    expect(list.text).toContain(`/admin/door/${id}`);
    expect((await owner.request("GET", "/admin/events?show=draft")).text).not.toContain(`/admin/events/${id}"`);
  });

  it("creates a draft when not published, refuses an end before the start beside the field", async () => {
    const hook = await env.call("POST", `/api/clubs/${env.clubId}/webhooks`, {
      body: { url: "http://127.0.0.1:9/hook", events: ["event.created", "event.updated"] },
    });
    expect(hook.status).toBe(201);
    const draft = await owner.post(NEW, eventForm({ title: "Brouillon", publish: "" }), NEW);
    const id = idFrom(draft.headers.get("location"));
    expect((await eventRow(id)).status).toBe("draft");
    // A draft from its first moment: announced as one, never as published then moved back.
    await fanOut(env.db, env.clubId);
    const announced = (await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, hook.body.id)))
      .map((d) => ({ type: d.type, data: JSON.parse(d.payload).data }))
      .filter((d) => d.data.id === id);
    expect(announced.map((d) => [d.type, d.data.status])).toEqual([["event.created", "draft"]]);
    expect((await owner.request("GET", "/admin/events?show=draft")).text).toContain(`/admin/events/${id}"`);
    const bad = await owner.post(NEW, eventForm({ title: "Bad dates", ends_at: inDaysAt(29, "10:00").slice(0, 16) }), NEW);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('id="f-ends_at-error"');
    expect(bad.text).toContain('value="Bad dates"');
    // The form's labels, not the API's field names (its answer still says ends_at).
    expect(bad.text).toContain('<p id="f-ends_at-error" class="error-text">« Fin » doit être postérieur à « Début ».</p>');
    expect(bad.text).not.toContain("starts_at »");
  });

  it("edits the event: clears the capacity, changes a ticket (keeping its tier prices, not in the form), adds one, removes one", async () => {
    const tier = await insertTier(env, { name: "Senior" });
    const event = await createEventVia(env, {
      title: "Edit me",
      capacity: 10,
      tickets: [
        { name: "A", member_price_cents: 100, non_member_price_cents: 200, tier_prices: { [tier.id]: 50 } },
        { name: "B", member_price_cents: 0 },
      ],
    });
    const [a, b] = event.tickets;
    const path = `/admin/events/${event.id}/edit`;
    const form = await owner.request("GET", path);
    expect(form.text).toContain('value="2.00"');
    const res = await owner.post(
      path,
      eventForm({
        title: "Edited",
        capacity: "",
        publish: "",
        t0_id: a.id,
        t0_name: "A+",
        t0_member: "1.50",
        t0_nonmember: "",
        t1_id: b.id,
        t1_name: "B",
        t1_member: "0",
        t1_remove: "yes",
        t2_name: "C",
        t2_member: "3",
        t2_nonmember: "4",
        t2_qty: "5",
      }),
      path,
    );
    expect(res.status).toBe(303);
    expect(await eventRow(event.id)).toMatchObject({ title: "Edited", capacity: null, status: "published" });
    const tickets = (await ticketsOf(event.id)).sort((x, y) => x.sort_order - y.sort_order);
    expect(tickets.map((t) => [t.name, t.member_price_cents, t.non_member_price_cents, t.quantity_max])).toEqual([
      ["A+", 150, null, null],
      ["C", 300, 400, 5],
    ]);
    expect(tickets[0].tier_prices).toEqual({ [tier.id]: 50 });
  });

  it("moves the status (draft, published, cancelled) and deletes an event nobody registered to", async () => {
    const event = await createEventVia(env, { title: "Moves" });
    const page = `/admin/events/${event.id}`;
    expect((await owner.post(`${page}/status`, { status: "draft" }, page)).status).toBe(303);
    expect((await eventRow(event.id)).status).toBe("draft");
    expect((await owner.post(`${page}/status`, { status: "published" }, page)).status).toBe(303);
    expect((await owner.post(`${page}/status`, { status: "nope" }, page)).status).toBe(422);
    expect((await owner.post(`${page}/status`, { status: "cancelled" }, page)).status).toBe(303);
    expect((await eventRow(event.id)).status).toBe("cancelled");
    // A cancelled event refuses every change (the API's 409), and its page offers none.
    expect((await owner.post(`${page}/status`, { status: "published" }, page)).status).toBe(409);
    expect((await owner.request("GET", page)).text).not.toContain(`${page}/status`);
    const gone = await createEventVia(env, { title: "Gone" });
    expect((await owner.post(`/admin/events/${gone.id}/delete`, {}, `/admin/events/${gone.id}`)).status).toBe(303);
    expect(await eventRow(gone.id)).toBeUndefined();
  });
});

describe("a free ticket's registration", () => {
  it("says free, nothing due, not unpaid, in the list and on its page; its origin in words", async () => {
    const event = await createEventVia(env, { title: "Apéro", tickets: [{ name: "Libre", member_price_cents: 0, non_member_price_cents: 0 }] });
    const path = `/admin/events/${event.id}`;
    const res = await owner.post(
      `${path}/registrations`,
      { ticket_id: event.tickets[0].id, first_name: "Zoé", last_name: "Gratis", email: "zoe@test.org" },
      path,
    );
    expect(res.status).toBe(303);
    const [reg] = await regsOf(event.id);
    expect(reg).toMatchObject({ status: "confirmed", amount_cents: 0, source: "admin" });
    const list = await owner.request("GET", path);
    expect(list.text).toContain('<td class="hide-small">Gratuit, rien à payer</td>');
    expect(list.text).not.toContain('<td class="hide-small">Non</td>');
    const detail = await owner.request("GET", `${path}/registrations/${reg.id}`);
    expect(detail.text).toContain("Gratuit, rien à payer");
    expect(detail.text).toContain("Ajoutée par un administrateur du club");
    expect(detail.text).not.toMatch(/<dd>admin<\/dd>/);
  });
});

describe("an event's registrations", () => {
  let event: { id: string; tickets: { id: string }[] };
  beforeAll(async () => {
    event = await createEventVia(env, {
      title: "Gala",
      capacity: 2,
      waitlist_enabled: true,
      tickets: [{ name: "Entry", member_price_cents: 1000, non_member_price_cents: 2000 }],
    });
  });
  const page = () => `/admin/events/${event.id}`;

  it("adds a guest (pending, the non-member price) and a member by email (the member price)", async () => {
    const guest = await owner.post(
      `${page()}/registrations`,
      { ticket_id: event.tickets[0].id, first_name: "Luca", last_name: "Bernasconi", email: "luca@test.org", member_email: "", status: "" },
      page(),
    );
    expect(guest.status).toBe(303);
    const member = await seedMember(env, { first_name: "Mia" });
    const res = await owner.post(
      `${page()}/registrations`,
      { ticket_id: event.tickets[0].id, first_name: "Mia", last_name: "Lovelace", member_email: member.email.toUpperCase() },
      page(),
    );
    expect(res.status).toBe(303);
    const regs = await regsOf(event.id);
    expect(regs.map((r) => [r.first_name, r.status, r.amount_cents, r.member_id, r.source])).toEqual([
      ["Luca", "pending", 2000, null, "admin"],
      ["Mia", "pending", 1000, member.id, "admin"],
    ]);
    const unknown = await owner.post(
      `${page()}/registrations`,
      { ticket_id: event.tickets[0].id, first_name: "X", last_name: "Y", member_email: "nobody@test.org" },
      page(),
    );
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain("Aucun membre du club n&#x27;a cette adresse.");
    // Full (capacity 2): the API's 409, shown on the form.
    const full = await owner.post(`${page()}/registrations`, { ticket_id: event.tickets[0].id, first_name: "Z", last_name: "Z" }, page());
    expect(full.status).toBe(409);
    expect(full.text).toContain('role="alert"');
    expect((await regsOf(event.id)).length).toBe(2);
  });

  it("a members-only ticket added without a member asks for the member's e-mail beside that field (not the public form's member code), nothing stored", async () => {
    const members = await createEventVia(env, { title: "AG", tickets: [{ name: "Membre", member_price_cents: 0 }] });
    const at = `/admin/events/${members.id}`;
    const res = await owner.post(`${at}/registrations`, { ticket_id: members.tickets[0].id, first_name: "Nina", last_name: "Guest", member_email: "" }, at);
    expect(res.status).toBe(403);
    expect(res.text).toContain("Ce billet est réservé aux membres : indiquez l&#x27;e-mail du membre.");
    expect(res.text).not.toContain("code de membre");
    expect(await regsOf(members.id)).toEqual([]);
  });

  it("confirms a pending registration with the payment received", async () => {
    const [luca] = await regsOf(event.id);
    const regPage = `${page()}/registrations/${luca.id}`;
    const view = await owner.request("GET", regPage);
    expect(view.text).toContain(`${regPage}/confirm`);
    expect(view.text).toContain('value="20.00"');
    const res = await owner.post(`${regPage}/confirm`, { amount: "18,50", payment_method: "cash" }, regPage);
    expect(res.status).toBe(303);
    expect((await registrationRow(env, luca.id)).status).toBe("confirmed");
    const paid = await registrationPayments(env, luca.id);
    expect(paid.map((p) => [p.amount_cents, p.method, p.kind])).toEqual([[1850, "cash", "event"]]);
    // Confirmed already: the API's 409, and the page no longer offers it.
    expect((await owner.post(`${regPage}/confirm`, {}, regPage)).status).toBe(409);
    expect((await owner.request("GET", regPage)).text).not.toContain(`${regPage}/confirm`);
  });

  it("invoices a member's pending registration once (a guest's page offers none); the confirm form chooses the method from a list", async () => {
    const [luca, mia] = await regsOf(event.id);
    const guestPage = `${page()}/registrations/${luca.id}`;
    expect((await owner.request("GET", guestPage)).text).not.toContain(`${guestPage}/invoice`);
    expect((await owner.post(`${guestPage}/invoice`, {}, guestPage)).status).toBe(409);
    const regPage = `${page()}/registrations/${mia.id}`;
    const view = await owner.request("GET", regPage);
    expect(view.text).toContain(`${regPage}/invoice`);
    expect(view.text).toMatch(/<select[^>]*name="payment_method"[\s\S]*<option value="cash"[^>]*>Espèces<\/option>/);
    for (let i = 0; i < 2; i++) {
      const res = await owner.post(`${regPage}/invoice`, {}, regPage);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/admin/invoices?show=open&done=created");
    }
    const made = await env.db.read.select().from(invoices).where(eq(invoices.registration_id, mia.id));
    expect(made.map((i) => [i.kind, i.status, i.amount_cents, i.member_id])).toEqual([["event", "open", 1000, mia.member_id as string]]);
    expect((await registrationRow(env, mia.id)).status).toBe("pending");
  });

  it("lists the waiting list in its order, and a cancellation with a refund moves its first up", async () => {
    const ticket = event.tickets[0].id;
    const first = await insertRegistration(env, { eventId: event.id, ticketId: ticket, status: "waitlisted", first: "Wait1", amount: 2000 });
    await insertRegistration(env, { eventId: event.id, ticketId: ticket, status: "waitlisted", first: "Wait2", amount: 2000 });
    const view = await owner.request("GET", page());
    expect(view.text).toContain("Liste d&#x27;attente (2)");
    expect(view.text.indexOf("Wait1")).toBeLessThan(view.text.indexOf("Wait2"));
    const [luca] = await regsOf(event.id);
    const regPage = `${page()}/registrations/${luca.id}`;
    const tooMuch = await owner.post(`${regPage}/cancel`, { reason: "ill", refund: "50" }, regPage);
    expect(tooMuch.status).toBe(409);
    expect((await registrationRow(env, luca.id)).status).toBe("confirmed");
    const res = await owner.post(`${regPage}/cancel`, { reason: "ill", refund: "18.50" }, regPage);
    expect(res.status).toBe(303);
    expect(await registrationRow(env, luca.id)).toMatchObject({ status: "cancelled", cancel_reason: "ill" });
    expect((await registrationPayments(env, luca.id)).map((p) => p.amount_cents)).toEqual([1850, -1850]);
    expect((await registrationRow(env, first.id)).status).toBe("pending");
    const after = await owner.request("GET", `${page()}?done=regCancelled`);
    expect(after.text).toContain("Inscription annulée.");
    expect(after.text).toContain("Liste d&#x27;attente (1)");
  });

  it("answers 404 for a registration of another event", async () => {
    const other = await createEventVia(env, { title: "Other" });
    const [reg] = await regsOf(event.id);
    expect((await owner.request("GET", `/admin/events/${other.id}/registrations/${reg.id}`)).status).toBe(404);
  });

  it("shows a read-only admin the event without edit actions, and refuses their posts", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const [, mia] = await regsOf(event.id);
    const list = await viewer.request("GET", "/admin/events");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(NEW);
    expect(list.text).not.toContain("/door");
    const view = await viewer.request("GET", page());
    expect(view.status).toBe(200);
    expect(view.text).not.toContain(`${page()}/status`);
    expect(view.text).not.toContain(`${page()}/edit`);
    expect(view.text).not.toContain('id="add-registration"');
    const regPage = `${page()}/registrations/${mia.id}`;
    const reg = await viewer.request("GET", regPage);
    expect(reg.status).toBe(200);
    expect(reg.text).not.toContain("/confirm");
    expect(reg.text).not.toContain("/cancel");
    expect((await viewer.post(`${regPage}/confirm`, {}, regPage)).status).toBe(403);
    expect((await viewer.post(`${regPage}/cancel`, {}, regPage)).status).toBe(403);
    expect((await registrationRow(env, mia.id)).status).toBe("pending");
  });
});
