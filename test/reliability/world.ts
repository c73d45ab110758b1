// The data the reliability suites act on, made through the public API as a client would: in our
// club a tier, a member, an event with a free ticket, a registration, a promo code, an invoice and a dashboard
// session; in another club the same objects, whose ids must never reach our club's answers.
import { issueChallenge, solveChallenge } from "../../lib/forms";
import { members, webhookEndpoints } from "../../db/schema";
import { newMemberRow } from "../../lib/members";
import { setup, type TestEnv } from "../helpers";

export type ClubObjects = {
  clubId: string;
  key: string;
  slug: string;
  tierId: string;
  memberId: string;
  memberCode: string;
  passSerial: string;
  eventId: string;
  ticketId: string;
  /** An event only the public registration route is sent to (the fuzzer's admin calls cancel and close `eventId`). */
  openEventId: string;
  openTicketId: string;
  qrToken: string;
  registrationId: string;
  promoCode: string;
  /**
   * A member of this club no other request uses, for the calls that erase one (DELETE member,
   * delete_member): erasing `memberId` would leave every later member request a 404. A fresh
   * uuid once the spares run out.
   */
  spareMemberId: () => string;

  promoCodeId: string;
  /** An open invoice to `memberId` (issue 27). */
  invoiceId: string;
  /** A draft mailing to every member (issue 29). */
  mailingId: string;
  /** A webhook endpoint (its host does not resolve: nothing is ever sent) and a delivery of its test event. */
  webhookId: string;
  deliveryId: string;
  /** An endpoint no other request uses, for the calls that delete one (as spareMemberId). */
  spareWebhookId: () => string;
};

export type World = { env: TestEnv; ours: ClubObjects; other: ClubObjects; session: string };

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function expectOk(res: { status: number; text: string }, what: string) {
  if (res.status >= 300) throw new Error(`world: ${what} answered ${res.status}: ${res.text.slice(0, 300)}`);
}

/** Seeds one club's objects with `key` (all scopes at edit). */
/** A solved form challenge (lib/forms) for the next public registration, or nothing when the check is off. */
export async function solvedProof(env: TestEnv): Promise<{ challenge: string; nonce: string } | Record<string, never>> {
  const bits = env.config.formProofBits;
  if (!bits) return {};
  const { challenge } = await issueChallenge(env.db, bits);
  return { challenge, nonce: solveChallenge(challenge, bits) };
}

export async function seedClub(env: TestEnv, clubId: string, key: string, tag: string): Promise<ClubObjects> {
  const base = `/api/clubs/${clubId}`;
  const tier = await env.call("POST", `${base}/tiers`, { key, body: { name: `Gold ${tag}`, price_cents: 5000 } });
  await expectOk(tier, "tier");
  const member = await env.call("POST", `${base}/members/manual`, {
    key,
    body: { first_name: "Ada", last_name: `Lovelace ${tag}`, email: `ada-${tag}@example.org`, membership_end: inDays(200).slice(0, 10), tier_id: tier.body.id },
  });
  await expectOk(member, "member");
  const event = await env.call("POST", `${base}/events`, {
    key,
    body: { title: `Soirée ${tag}`, starts_at: inDays(30), tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }] },
  });
  await expectOk(event, "event");
  const ticketId = event.body.tickets[0].id;
  const open = await env.call("POST", `${base}/events`, {
    key,
    body: {
      title: `Portes ouvertes ${tag}`,
      starts_at: inDays(60),
      max_per_email: 100,
      tickets: [{ name: "Libre", member_price_cents: 0, non_member_price_cents: 0 }],
    },
  });
  await expectOk(open, "open event");
  const reg = await env.app.handle(
    new Request(`http://localhost/api/public/events/${event.body.id}/registrations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ticket_id: ticketId, first_name: "Grace", last_name: "Hopper", email: `grace-${tag}@example.org`, ...(await solvedProof(env)) }),
    }),
    `10.9.0.${tag === "ours" ? 1 : 2}`,
  );
  const regBody = (await reg.json()) as { id: string; qr_token: string };
  if (reg.status !== 201) throw new Error(`world: registration answered ${reg.status}`);
  const promoCode = `PROMO${tag.toUpperCase()}`;
  const promo = await env.call("POST", `${base}/promo-codes`, { key, body: { code: promoCode, discount_type: "percent", discount_value: 10 } });
  await expectOk(promo, "promo code");
  const hook = await env.call("POST", `${base}/webhooks`, { key, body: { url: `https://hooks.invalid/${tag}`, events: ["*"] } });
  await expectOk(hook, "webhook");
  const test = await env.call("POST", `${base}/webhooks/${hook.body.id}/test`, { key });
  await expectOk(test, "webhook test");
  const invoice = await env.call("POST", `${base}/invoices`, {
    key,
    body: { member_id: member.body.id, lines: [{ label: `Cotisation ${tag}`, amount_cents: 5000 }] },
  });
  await expectOk(invoice, "invoice");
  const mailing = await env.call("POST", `${base}/mailings`, { key, body: { subject: `Lettre ${tag}`, body_markdown: "Bonjour {{first_name}}" } });
  await expectOk(mailing, "mailing");
  const me = await env.call("GET", "/api/auth/me", { key });
  return {
    clubId,
    key,
    slug: me.body.club.slug,
    tierId: tier.body.id,
    memberId: member.body.id,
    memberCode: member.body.referral_code,
    passSerial: member.body.pass_serial_number,
    eventId: event.body.id,
    ticketId,
    openEventId: open.body.id,
    openTicketId: open.body.tickets[0].id,
    qrToken: regBody.qr_token,
    registrationId: regBody.id,
    promoCode,
    spareMemberId: await spareMembers(env, clubId, 400),

    promoCodeId: promo.body.id,
    invoiceId: invoice.body.id,
    mailingId: mailing.body.id,
    webhookId: hook.body.id,
    deliveryId: test.body.id,
    spareWebhookId: await spareWebhooks(env, clubId, 100),
  };
}

/** A fresh app and database with both clubs seeded; the rate limit is lifted unless `env` says. */
export async function makeWorld(envVars: Record<string, string> = {}): Promise<World> {
  const env = await setup({ RATE_LIMIT_PER_MINUTE: "100000000", ...envVars });
  const ours = await seedClub(env, env.clubId, env.key, "ours");
  const otherClub = await env.otherClub();
  const other = await seedClub(env, otherClub.club_id, otherClub.api_key, "other");
  const login = await env.call("POST", "/api/auth/login", { key: null, body: { email: "owner@test.org", password: "owner-password" } });
  await expectOk(login, "login");
  return { env, ours, other, session: login.body.token };
}

/** `n` members of the club written at once, handed out one per call. */
async function spareMembers(env: TestEnv, clubId: string, n: number): Promise<() => string> {
  const end = inDays(200).slice(0, 10);
  const rows = Array.from({ length: n }, (_, i) =>
    newMemberRow(clubId, {
      first_name: "Spare",
      last_name: `Member ${i}`,
      email: `spare-${i}-${clubId}@example.org`,
      membership_start: end,
      membership_end: end,
      payment_status: "paid",
    }),
  );
  await env.db.tx(async (t) => {
    for (let i = 0; i < rows.length; i += 100) await t.insert(members).values(rows.slice(i, i + 100));
  });
  const ids = rows.map((r) => r.id as string);
  return () => ids.pop() ?? crypto.randomUUID();
}

/** `n` webhook endpoints of the club (written at once), handed out one per call. */
async function spareWebhooks(env: TestEnv, clubId: string, n: number): Promise<() => string> {
  const now = new Date().toISOString();
  const rows = Array.from({ length: n }, (_, i) => ({
    id: crypto.randomUUID(),
    club_id: clubId,
    url: `https://hooks.invalid/spare-${i}`,
    events: ["*"],
    secret: "whsec_c3BhcmVzcGFyZXNwYXJlc3BhcmVzcGFyZXNwYXJlc3A=",
    enabled: true,
    created_at: now,
    updated_at: now,
  }));
  await env.db.tx((t) => t.insert(webhookEndpoints).values(rows));
  const ids = rows.map((r) => r.id);
  return () => ids.pop() ?? crypto.randomUUID();
}
