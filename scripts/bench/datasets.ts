// The data the benchmarks run on, seeded once per `bun run bench` through the schema and lib/
// (initClub, createTier, createEvent, newMemberRow) into a template database file; every measured
// run then gets a fresh copy of that file, ours and the baseline alike.
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { openDb } from "../../db";
import { eventRegistrations, members, payments } from "../../db/schema";
import { emailKeyOf } from "../../db/text";
import { operatorCtx } from "../../lib/auth/operator";
import { initClub } from "../../lib/auth/init";
import { loadConfig } from "../../lib/config";
import { createEvent } from "../../lib/events";
import { newId, randomBase62 } from "../../lib/ids";
import { newMemberRow } from "../../lib/members";
import { addDays, newReferralCode, searchTextOf } from "../../lib/members/internal";
import { todayUtc } from "../../lib/members/status";
import { createTier } from "../../lib/tiers";
import { makeTempDir } from "./harness";

export type Dataset = {
  name: string;
  /** The template file: copy it with `freshCopy`, never open it for writing. */
  path: string;
  dir: string;
  clubId: string;
  key: string;
  members: number;
  /** Pass serial numbers of the members (what GET /api/verify/<serial> is asked about). */
  serials: string[];
  /** The event whose registrations check-in scans, when asked for. */
  event: { id: string; qrTokens: string[] } | null;
};

/** `payments`: that many payments over the last year (a year's journal), of the members, every kind. */
export type DatasetSpec = { members: number; registrations?: number; payments?: number };

const FIRST = ["Anna", "Élodie", "Łukasz", "Jiří", "Marco", "Sophie", "Jörg", "Chiara", "Luc", "Nina"];
const LAST = ["Muster", "Żółć", "Čapek", "Favre", "Rossi", "Böhm", "Dupont", "Meier", "Keller", "Bianchi"];
/** 60% paid, 20% pending, 20% suspended; ends spread from 100 days ago to 300 days ahead. */
const PAYMENT = ["paid", "paid", "paid", "pending", "suspended"];
const BATCH = 500;

const cache = new Map<string, Promise<Dataset>>();

/** The dataset of `spec`, seeded on first use and shared by every benchmark that asks for the same. */
export function dataset(spec: DatasetSpec, log: (line: string) => void): Promise<Dataset> {
  const name = `${spec.members}-members${spec.registrations ? `-${spec.registrations}-registrations` : ""}${spec.payments ? `-${spec.payments}-payments` : ""}`;
  let ds = cache.get(name);
  if (!ds) {
    ds = seed(name, spec, log);
    cache.set(name, ds);
  }
  return ds;
}

async function seed(name: string, spec: DatasetSpec, log: (line: string) => void): Promise<Dataset> {
  const started = performance.now();
  const dir = makeTempDir(`club-bench-data-${name}-`);
  const path = join(dir, "club.db");
  const db = await openDb(path);
  try {
    const club = await initClub(db, { clubName: "Bench club", email: "bench@example.org", locale: "fr", currency: "CHF" });
    const ctx = await operatorCtx(db, club.club_id, loadConfig({ DATABASE_URL: path, OUTBOX_DIR: join(dir, "outbox"), BASE_URL: "http://127.0.0.1" }));
    const tierIds = [
      (await createTier(ctx, { name: "Adulte", price_cents: 5000 })).id,
      (await createTier(ctx, { name: "Junior", price_cents: 2500, duration_months: 6 })).id,
    ];
    const today = todayUtc();
    const start = Date.parse(`${addDays(today, -400)}T08:00:00.000Z`);
    const serials: string[] = [];
    const memberIds: string[] = [];
    const codes = new Set<string>();
    await db.tx(async (t) => {
      for (let i = 0; i < spec.members; i += BATCH) {
        const batch: (typeof members.$inferInsert)[] = [];
        for (let j = i; j < Math.min(spec.members, i + BATCH); j++) {
          const row = newMemberRow(club.club_id, {
            first_name: FIRST[j % 10],
            last_name: `${LAST[(j * 7) % 10]}${j}`,
            email: `member${j}@bench.example.org`,
            membership_start: addDays(today, -200),
            membership_end: addDays(today, (j % 400) - 100),
            payment_status: PAYMENT[j % 5],
            payment_method: j % 2 ? "bank_transfer" : "cash",
            tier_id: j % 3 ? tierIds[j % 2] : null,
            // One a minute: the default sort (registered) has distinct, realistic times.
            created_at: new Date(start + j * 60_000).toISOString(),
          });
          // Referral codes are unique per club: draw again on the rare collision.
          while (codes.has(row.referral_code)) {
            row.referral_code = newReferralCode();
            row.search_text = searchTextOf(row);
          }
          codes.add(row.referral_code);
          serials.push(row.pass_serial_number);
          memberIds.push(row.id as string);
          batch.push(row);
        }
        await t.insert(members).values(batch);
      }
    });
    let event: Dataset["event"] = null;
    if (spec.registrations) {
      const created = await createEvent(ctx, {
        title: "Soirée d'été",
        starts_at: `${addDays(today, 30)}T18:00:00.000Z`,
        tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 1500 }],
      } as never);
      const ticketId = created.tickets[0].id;
      const qrTokens = Array.from({ length: spec.registrations }, () => randomBase62(24));
      const now = new Date().toISOString();
      await db.tx(async (t) => {
        for (let i = 0; i < qrTokens.length; i += BATCH) {
          await t.insert(eventRegistrations).values(
            qrTokens.slice(i, i + BATCH).map((qr_token, k) => ({
              id: newId(),
              club_id: club.club_id,
              event_id: created.id,
              ticket_id: ticketId,
              first_name: FIRST[(i + k) % 10],
              last_name: `${LAST[(i + k) % 10]}${i + k}`,
              email: `guest${i + k}@bench.example.org`,
              // As the product writes it: a start on a copy backfills none, as no real start after the first does.
              email_key: emailKeyOf(`guest${i + k}@bench.example.org`),
              qr_token,
              status: "confirmed",
              amount_cents: 1500,
              currency: "CHF",
              created_at: now,
              updated_at: now,
            })),
          );
        }
      });
      event = { id: created.id, qrTokens };
    }
    if (spec.payments) await seedPayments(db, club.club_id, spec.payments, memberIds);
    log(`dataset ${name}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { name, path, dir, clubId: club.club_id, key: club.api_key, members: spec.members, serials, event };
  } finally {
    // Closing the last connection checkpoints the WAL into the file: the copies are complete.
    db.close();
  }
}

/**
 * `n` payments spread over the last 365 days, one member's each: half by card through Stripe (fee
 * 2.9 % + 30, commission 1 %), a third by bank transfer, the rest cash, one in twenty a refund.
 */
async function seedPayments(db: Awaited<ReturnType<typeof openDb>>, clubId: string, n: number, memberIds: string[]): Promise<void> {
  const end = Date.now();
  await db.tx(async (t) => {
    for (let i = 0; i < n; i += BATCH) {
      const batch: (typeof payments.$inferInsert)[] = [];
      for (let j = i; j < Math.min(n, i + BATCH); j++) {
        const card = j % 2 === 0;
        const amount = (j % 20 === 19 ? -1 : 1) * (2500 + (j % 4) * 1250);
        const paidAt = new Date(end - Math.floor(((n - j) / n) * 365 * 86_400_000)).toISOString();
        batch.push({
          id: newId(),
          club_id: clubId,
          member_id: memberIds[j % memberIds.length],
          kind: "membership",
          amount_cents: amount,
          currency: "CHF",
          method: card ? "stripe" : j % 3 ? "bank_transfer" : "cash",
          source: card ? "provider" : "manual",
          provider_fee_cents: card && amount > 0 ? Math.round(amount * 0.029) + 30 : 0,
          platform_commission_cents: Math.round(amount / 100),
          paid_at: paidAt,
          created_at: paidAt,
        });
      }
      await t.insert(payments).values(batch);
    }
  });
}

/** A fresh copy of the dataset's database in `dir`; answers its path. */
export function freshCopy(ds: Dataset, dir: string): string {
  const path = join(dir, "club.db");
  copyFileSync(ds.path, path);
  return path;
}
