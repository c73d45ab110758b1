// `seed demo` (DESIGN section 3): fills an empty club with what a person trying the product
// wants to see — tiers, members in every state and with names from several languages, an event
// with its tickets and registrations, a promo code — all through the same verbs as the API, so
// the demo is data the API could have written.
import { count, eq } from "drizzle-orm";
import { members } from "../db/schema";
import type { Ctx, PublicCtx } from "./context";
import { Conflict } from "./errors";
import { createEvent } from "./events";
import { EventCreate } from "./events/schemas";
import { registerForEvent } from "./registrations/public";
import { importMembers } from "./members/import";
import { listMembers } from "./members";
import { addDays } from "./members/internal";
import { todayUtc } from "./members/status";
import { createPromoCode, PromoCodeCreate } from "./promo";
import { createTier, TierCreate } from "./tiers";

const PEOPLE = [
  ["Anna", "Muster"],
  ["Élodie", "Favre"],
  ["Łukasz", "Żółć"],
  ["Jiří", "Čapek"],
  ["Marco", "Rossi"],
  ["Sophie", "Dupont"],
  ["Jörg", "Böhm"],
  ["Chiara", "Bianchi"],
  ["Luc", "Meier"],
  ["Nina", "Keller"],
  ["Hélène", "Aubert"],
  ["Søren", "Ødegaard"],
  ["Zofia", "Wiśniewska"],
  ["Pierre", "Roy"],
  ["Giulia", "Conti"],
  ["Lukas", "Zürcher"],
  ["Camille", "Girard"],
  ["Tomáš", "Dvořák"],
  ["Emma", "Schmid"],
  ["Paolo", "Ricci"],
] as const;

export type DemoSeeded = { tiers: number; members: number; events: number; registrations: number; promo_codes: number };

/** Seeds the demo into the club of `ctx`, which must have no members yet (409 CLUB_NOT_EMPTY). */
export async function seedDemo(ctx: Ctx): Promise<DemoSeeded> {
  const [{ n }] = await ctx.db.read.select({ n: count() }).from(members).where(eq(members.club_id, ctx.clubId));
  if (n > 0) throw new Conflict("CLUB_NOT_EMPTY");
  const today = todayUtc();
  const tiers = [
    await createTier(ctx, TierCreate.parse({ name: "Adulte", price_cents: 5000, sort_order: 1 })),
    await createTier(ctx, TierCreate.parse({ name: "Junior", price_cents: 2500, duration_months: 6, sort_order: 2 })),
    await createTier(ctx, TierCreate.parse({ name: "Soutien", price_cents: 10000, sort_order: 3 })),
  ];
  // Most paid and current; some expired, some waiting for their payment, one suspended.
  const rows = PEOPLE.map(([first, last], i) => {
    const state = i % 10 === 3 ? "expired" : i % 10 === 7 ? "pending" : i === 9 ? "suspended" : "active";
    const end = state === "expired" ? addDays(today, -20 - i) : addDays(today, 30 + i * 15);
    const start = addDays(end, -364);
    const email = `${first}.${last}`
      .normalize("NFKD")
      .replace(/[^A-Za-z.]/g, "")
      .toLowerCase();
    const payment = state === "pending" ? "pending" : state === "suspended" ? "suspended" : "paid";
    return [first, last, `${email}@demo.example.org`, start, end, payment, i % 2 ? "bank_transfer" : "cash"].join(",");
  });
  const imported = await importMembers(ctx, {
    csv: ["first_name,last_name,email,membership_start,membership_end,payment_status,payment_method", ...rows].join("\n"),
  });
  const event = await createEvent(
    ctx,
    EventCreate.parse({
      title: "Soirée de rentrée",
      starts_at: `${addDays(today, 30)}T18:30:00.000Z`,
      location_name: "Salle communale",
      capacity: 80,
      tickets: [
        { name: "Membre", member_price_cents: 0, non_member_price_cents: null },
        { name: "Invité", member_price_cents: 0, non_member_price_cents: 1500 },
      ],
    }),
  );
  const listed = await listMembers(ctx, { status: "active", limit: 5, sort: "name", dir: "asc" } as never);
  const memberTicket = event.tickets[0].id;
  // The members register themselves, as on the public page (no address: nothing rate-limits the
  // demo; no challenge to solve: the operator seeds, no bot).
  const visitor: PublicCtx = {
    db: ctx.db,
    baseUrl: ctx.baseUrl,
    wallets: ctx.wallets ?? { apple: null, google: null },
    ip: null,
    locale: ctx.locale,
    formProofBits: 0,
  };
  for (const m of listed.items) {
    await registerForEvent(visitor, event.id, {
      ticket_id: memberTicket,
      first_name: m.first_name,
      last_name: m.last_name,
      email: m.email,
      member_code: m.referral_code,
    });
  }
  await createPromoCode(ctx, PromoCodeCreate.parse({ code: "BIENVENUE", discount_type: "percent", discount_value: 10, event_id: event.id }));
  return { tiers: tiers.length, members: imported.created, events: 1, registrations: listed.items.length, promo_codes: 1 };
}
