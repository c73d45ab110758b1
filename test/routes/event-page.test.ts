// /e/<club_slug>/<event_slug>: the event's public_url as a page (issue 13 item 6), and its .ics.
// The event in the club's colours, language (or ?lang=) and time zone, its tickets with prices and
// what is left; a posted form registers through the JSON route's verb (what the database holds
// afterwards) and answers confirmed with the ticket's code, pending, or waitlisted; refusals
// beside their field; drafts and unknown slugs are 404 pages.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, eventRegistrations } from "../../db/schema";
import { createEventVia, inDaysAt, insertMember } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { errorOf, pageGet, pagePost } from "../pages-fixtures";

let env: TestEnv;
let clubSlug: string;
beforeAll(async () => {
  env = await setup();
  [{ slug: clubSlug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
});
afterAll(() => env.close());
beforeEach(() =>
  env.db.tx((t) => t.update(clubs).set({ locale: "fr", country: "CH", primary_color: "#7C2D12", secondary_color: "#FDE68A" }).where(eq(clubs.id, env.clubId))),
);

const get = (path: string, headers: Record<string, string> = {}) => pageGet(env, path, headers);
const post = (path: string, form: Record<string, string>) => pagePost(env, path, form);
const regsOf = (eventId: string) => env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, eventId));
const pathOf = (event: { public_url: string }) => new URL(event.public_url).pathname;
let n = 0;
const person = (over: Record<string, string> = {}) => ({
  first_name: "Marie",
  last_name: "Curie",
  email: `marie-page${++n}@example.org`,
  challenge: "",
  nonce: "",
  website: "",
  ...over,
});

describe("GET /e/<club>/<event>", () => {
  it("is the event's public_url: title, date and time in the club's time zone, place, description, tickets with prices and places left", async () => {
    const event = await createEventVia(env, {
      title: "Soirée d'été",
      // 16:30 UTC is 18:30 in Zurich in July (CEST).
      starts_at: "2099-07-01T16:30:00Z",
      ends_at: "2099-07-01T20:00:00Z",
      location_name: "Salle communale",
      location_address: "Rue du Lac 1, Lausanne",
      description: "Apéritif <offert>",
      capacity: 40,
      tickets: [
        { name: "Membre", member_price_cents: 0 },
        { name: "Invité", member_price_cents: 1500, non_member_price_cents: 2500 },
      ],
    });
    expect(event.public_url).toBe(`http://localhost/e/${clubSlug}/${event.slug}`);
    const res = await get(pathOf(event));
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="fr">');
    expect(res.text).toContain("--primary:#7C2D12");
    expect(res.text).toContain("Soirée d&#39;été");
    expect(res.text).toContain("18:30");
    expect(res.text).toContain("22:00");
    expect(res.text).toMatch(/mercredi,? 1 juillet 2099/);
    expect(res.text).toContain("Salle communale, Rue du Lac 1, Lausanne");
    expect(res.text).toContain("Apéritif &lt;offert&gt;");
    expect(res.text).toContain("Plus que 40 places");
    expect(res.text).toMatch(/Membres : 15,00\sCHF · Non-membres : 25,00\sCHF/);
    expect(res.text).toContain('name="ticket_id"');
    expect(res.text).toContain(`href="${event.public_url}.ics"`);
    expect(res.text).not.toMatch(/<link |@import|src="https?:|<script src/i);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors *");
  });

  it("serves the event's calendar file at public_url + .ics", async () => {
    const event = await createEventVia(env, { title: "Assemblée", starts_at: "2099-03-10T18:00:00Z", location_name: "Aula" });
    const res = await get(`${pathOf(event)}.ics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/calendar");
    expect(res.text).toContain("SUMMARY:Assemblée");
    expect(res.text).toContain("DTSTART:20990310T180000Z");
    expect(res.text).toContain(`UID:${event.id}@club-api`);
    expect(res.text).toContain(`URL:${event.public_url}`);
  });

  it("speaks ?lang= when it is one of the four, else the club's language", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "T", non_member_price_cents: 0 }] });
    const en = await get(`${pathOf(event)}?lang=en`);
    expect(en.text).toContain('<html lang="en">');
    expect(en.text).toContain("Register");
    expect(en.text).toContain(`action="${pathOf(event)}?lang=en"`);
    const wrong = await get(`${pathOf(event)}?lang=klingon`);
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain('<html lang="fr">');
  });

  it("answers a draft, an unknown event or an unknown club with a 404 page", async () => {
    const draft = await createEventVia(env, { title: "Brouillon" });
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${draft.id}`, { body: { status: "draft" } });
    for (const path of [pathOf(draft), `/e/${clubSlug}/no-such-event`, "/e/no-such-club/soiree", `/e/${clubSlug}/no-such-event.ics`]) {
      const res = await get(path, { "accept-language": "it" });
      expect(res.status).toBe(404);
      expect(res.text).toContain("Pagina non trovata");
    }
  });

  it("shows no form, and says why, before registration opens and when sold out without a waiting list", async () => {
    const early = await createEventVia(env, { registration_opens_at: inDaysAt(3), tickets: [{ name: "T", non_member_price_cents: 0 }] });
    const notYet = await get(pathOf(early));
    expect(notYet.text).toContain("Les inscriptions ouvrent le");
    expect(notYet.text).not.toContain("<form");
    const full = await createEventVia(env, { capacity: 1, waitlist_enabled: false, tickets: [{ name: "T", non_member_price_cents: 0 }] });
    expect((await get(pathOf(full))).text).toContain("<form");
    expect((await post(pathOf(full), { ticket_id: full.tickets[0].id, ...person() })).status).toBe(201);
    const soldOut = await get(pathOf(full));
    expect(soldOut.text).toContain('<p class="alert" role="status">Complet</p>');
    expect(soldOut.text).not.toContain("<form");
  });

  it("says a cancelled event is cancelled, with no form", async () => {
    const event = await createEventVia(env, { title: "Annulé", tickets: [{ name: "T", non_member_price_cents: 0 }] });
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${event.id}`, { body: { status: "cancelled" } });
    const res = await get(pathOf(event));
    expect(res.status).toBe(200);
    expect(res.text).toContain("Cet événement est annulé.");
    expect(res.text).not.toContain("<form");
  });
});

describe("POST /e/<club>/<event>", () => {
  it("registers to a free ticket: confirmed, the ticket's QR code and calendar link, and the registration stored", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }] });
    const res = await post(pathOf(event), { ticket_id: event.tickets[0].id, ...person({ first_name: "Irène" }) });
    expect(res.status).toBe(201);
    const [reg] = await regsOf(event.id);
    expect(reg).toMatchObject({ first_name: "Irène", status: "confirmed", source: "public", amount_cents: 0 });
    expect(res.text).toContain("Vous êtes inscrit·e");
    expect(res.text).toContain("<svg");
    expect(res.text).toContain(reg.qr_token);
    expect(res.text).toContain(`/api/public/registrations/${reg.qr_token}/ics`);
  });

  it("holds a paid ticket as pending, says until when and whom to ask how to pay", async () => {
    await env.db.tx((t) => t.update(clubs).set({ contact_email: "caisse@club.example" }).where(eq(clubs.id, env.clubId)));
    const event = await createEventVia(env, { tickets: [{ name: "Invité", non_member_price_cents: 2500 }] });
    const res = await post(pathOf(event), { ticket_id: event.tickets[0].id, ...person(), lang: "en" });
    expect(res.status).toBe(201);
    expect(res.text).toContain("Place held: payment due");
    expect(res.text).toMatch(/CHF\s25\.00/);
    expect(res.text).toContain('href="mailto:caisse@club.example"');
    const [reg] = await regsOf(event.id);
    expect(reg).toMatchObject({ status: "pending", amount_cents: 2500 });
    expect(reg.hold_expires_at).toBeString();
  });

  it("puts a registration for a full event with a waiting list on it", async () => {
    const event = await createEventVia(env, { capacity: 1, waitlist_enabled: true, tickets: [{ name: "T", non_member_price_cents: 0 }] });
    expect((await post(pathOf(event), { ticket_id: event.tickets[0].id, ...person() })).status).toBe(201);
    const page = await get(pathOf(event));
    expect(page.text).toContain("liste d&#39;attente");
    const res = await post(pathOf(event), { ticket_id: event.tickets[0].id, ...person({ first_name: "Second" }) });
    expect(res.status).toBe(201);
    expect(res.text).toContain("Vous êtes sur la liste d&#39;attente");
    expect((await regsOf(event.id)).find((r) => r.first_name === "Second")?.status).toBe("waitlisted");
  });

  it("refuses beside the field: an unknown member code, the email's limit, a missing ticket; stores nothing more", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "T", member_price_cents: 0, non_member_price_cents: 1000 }] });
    const ticket = event.tickets[0].id;
    const code = await post(pathOf(event), { ticket_id: ticket, ...person({ member_code: "NOPE42", first_name: "Jeanne" }) });
    expect(code.status).toBe(422);
    expect(errorOf(code.text, "member_code")).toBeString();
    expect(code.text).toContain('value="Jeanne"');
    const once = person();
    expect((await post(pathOf(event), { ticket_id: ticket, ...once })).status).toBe(201);
    const twice = await post(pathOf(event), { ticket_id: ticket, ...once, lang: "de" });
    expect(twice.status).toBe(409);
    expect(errorOf(twice.text, "email")).toContain("E-Mail");
    const none = await post(pathOf(event), person());
    expect(none.status).toBe(422);
    expect(errorOf(none.text, "ticket_id")).toBeString();
    expect((await regsOf(event.id)).length).toBe(1);
  });

  it("gives a member the member price with their card code", async () => {
    const member = await insertMember(env, { first: "Paul" });
    const event = await createEventVia(env, { tickets: [{ name: "T", member_price_cents: 0, non_member_price_cents: 1000 }] });
    const res = await post(pathOf(event), { ticket_id: event.tickets[0].id, ...person({ member_code: member.referral_code }) });
    expect(res.status).toBe(201);
    expect((await regsOf(event.id))[0]).toMatchObject({ is_member: true, status: "confirmed", amount_cents: 0, member_id: member.id });
  });

  it("answers a past event's form with its refusal and no form", async () => {
    const event = await createEventVia(env, { starts_at: inDaysAt(-2), tickets: [{ name: "T", non_member_price_cents: 0 }] });
    expect((await get(pathOf(event))).text).toContain("Les inscriptions sont closes.");
    const res = await post(pathOf(event), { ticket_id: event.tickets[0].id, ...person() });
    expect(res.status).toBe(409);
    expect((await regsOf(event.id)).length).toBe(0);
  });
});
