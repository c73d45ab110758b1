// The member list keeps its `total` and its pages between requests (lib/members/kept.ts): both
// must be exact right after every kind of write they show, whoever makes it, with the day's
// derived status, and under concurrent writes. Each check compares every status filter's total
// with a count of the rows, and every item of the list with the member's own GET (never kept).
import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it, setSystemTime } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, members } from "../../db/schema";
import { creditorReference } from "../../lib/payments/reference";
import { statusOn } from "../../lib/members/status";
import { setup, type TestEnv } from "../helpers";
import { addDays, importFile, seedMember, todayUtc } from "../members-fixtures";
import pg from "pg";
import { onPostgres } from "../databases";

let env: TestEnv;
let slug: string;
let tier: string;
beforeAll(async () => {
  // Each check reads every member once (their own GET): more than the 300 a minute of one key.
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000" });
  await env.db.tx((t) => t.update(clubs).set({ membership_mode: "open", currency: "CHF" }).where(eq(clubs.id, env.clubId)));
  [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
  tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Junior", price_cents: 0, currency: "CHF", duration_months: 12 } })).body.id;
});
afterAll(() => env.close());
afterEach(() => setSystemTime());

const STATUSES = ["all", "active", "expired", "pending", "suspended"] as const;
const list = (qs: string) => env.call("GET", `/api/clubs/${env.clubId}/members?limit=1&${qs}`);

/** What each status filter must answer: the club's rows counted here, the status derived here. */
async function truth(): Promise<Record<string, number>> {
  const rows = await env.db.read.select().from(members).where(eq(members.club_id, env.clubId));
  const [{ grace }] = await env.db.read.select({ grace: clubs.grace_period_days }).from(clubs).where(eq(clubs.id, env.clubId));
  const today = todayUtc();
  const out: Record<string, number> = { all: rows.length, active: 0, expired: 0, pending: 0, suspended: 0 };
  for (const r of rows) out[statusOn(r, today, grace)]++;
  return out;
}

async function totals(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const s of STATUSES) {
    const res = await list(`status=${s}`);
    expect(res.status).toBe(200);
    out[s] = res.body.total;
  }
  return out;
}

/** Every page of the whole list, by name, 40 at a time: the same pages each check, so a kept one is asked again. */
async function wholeList(): Promise<{ id: string }[]> {
  const items: { id: string }[] = [];
  for (let page = 1; ; page++) {
    const res = await env.call("GET", `/api/clubs/${env.clubId}/members?status=all&sort=name&limit=40&page=${page}`);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    if (res.body.items.length < 40) return items;
  }
}

async function expectExact() {
  expect(await totals()).toEqual(await truth());
  const items = await wholeList();
  const rows = await env.db.read.select({ id: members.id }).from(members).where(eq(members.club_id, env.clubId));
  expect(items.map((i) => i.id).sort()).toEqual(rows.map((r) => r.id).sort());
  for (const item of items) expect(item).toEqual((await env.call("GET", `/api/clubs/${env.clubId}/members/${item.id}`)).body);
}

/**
 * `sql` run by a connection of its own, as the CLI's process or a hand in the sqlite3 shell (or
 * psql) would: SQLite's `?` parameters become PostgreSQL's `$1`, `$2`...
 */
async function byAnotherConnection(sql: string, ...values: string[]) {
  if (onPostgres) {
    const other = new pg.Client({ connectionString: env.config.databaseUrl });
    await other.connect();
    try {
      let n = 0;
      await other.query(
        sql.replace(/\?/g, () => `$${++n}`),
        values,
      );
    } finally {
      await other.end();
    }
    return;
  }
  const other = new Database(env.config.databaseUrl);
  try {
    other.exec("PRAGMA busy_timeout = 5000");
    other.query(sql).run(...values);
  } finally {
    other.close();
  }
}

const member = async (over = {}) => (await seedMember(env, over)).id;
const action = (id: string, name: string, body: unknown = {}) => env.call("POST", `/api/clubs/${env.clubId}/members/${id}/actions/${name}`, { body });

/**
 * Every kind of member write, each followed by a check. A new kind of write goes here; erasure's
 * route (DELETE members/:member_id, built on another branch, deletes the row) joins at merge as
 * `["erase", async () => expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${await member()}`)).status).toBe(204)]`.
 */
const WRITES: [string, () => Promise<void>][] = [
  [
    "create by hand",
    async () => {
      const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
        body: { first_name: "Jeanne", last_name: "Dupont", email: `j-${crypto.randomUUID()}@test.org`, membership_end: addDays(todayUtc(), 30) },
      });
      expect(res.status).toBe(201);
    },
  ],
  [
    "import (create)",
    async () => {
      const csv = `Prénom;Nom;Courriel;Fin abonnement\nAnaïs;Favre;a-${crypto.randomUUID()}@test.org;31.12.2030\nLuc;Meier;l-${crypto.randomUUID()}@test.org;01.01.2020\n`;
      expect((await importFile(env, csv)).body).toMatchObject({ created: 2, written: true });
    },
  ],
  [
    "import (update: an expired member's end moved ahead)",
    async () => {
      const email = `u-${crypto.randomUUID()}@test.org`;
      await member({ email, membership_end: addDays(todayUtc(), -10) });
      await expectExact();
      expect((await importFile(env, `Prénom;Nom;Courriel;Fin abonnement\nUrs;Keller;${email};31.12.2031\n`, "?mode=update")).body).toMatchObject({
        updated: 1,
      });
    },
  ],
  ["suspend", async () => expect((await action(await member(), "suspend")).status).toBe(200)],
  [
    "reactivate",
    async () => {
      const id = await member({ payment_status: "suspended", status_before_suspension: "pending" });
      await expectExact();
      expect((await action(id, "reactivate")).status).toBe(200);
    },
  ],
  [
    "extend an expired member",
    async () => expect((await action(await member({ membership_end: addDays(todayUtc(), -3) }), "extend", { extend_months: 2 })).status).toBe(200),
  ],
  [
    "mark a pending member paid",
    async () => expect((await action(await member({ payment_status: "pending" }), "mark-paid", { amount_cents: 5000 })).status).toBe(200),
  ],
  [
    "join (the public form)",
    async () => {
      const res = await env.app.handle(
        new Request(`http://localhost/api/public/clubs/${slug}/join`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            tier_id: tier,
            first_name: "Ana",
            last_name: "Silva",
            payment_method: "bank_transfer",
            email: `join-${crypto.randomUUID()}@test.org`,
          }),
        }),
      );
      expect(res.status).toBe(201);
    },
  ],
  [
    "a bank statement marks a pending member paid (payments/import)",
    async () => {
      const code = `TOT${crypto.randomUUID().replace(/-/g, "").slice(0, 5).toUpperCase()}`;
      await member({ referral_code: code, payment_status: "pending", amount_due_cents: 5000, is_manual: false });
      await expectExact();
      const csv = `date,amount,currency,reference\n${todayUtc()},50.00,CHF,${creditorReference(code)}\n`;
      const res = await env.call("POST", `/api/clubs/${env.clubId}/payments/import`, { rawBody: csv, headers: { "content-type": "text/csv" } });
      expect(res.status).toBe(200);
      expect(res.body.matched).toHaveLength(1);
    },
  ],
  [
    "a member's details changed (PATCH)",
    async () => {
      const id = await member();
      await expectExact();
      const res = await env.call("PATCH", `/api/clubs/${env.clubId}/members/${id}`, { body: { first_name: "Renommée" } });
      expect(res.status).toBe(200);
    },
  ],
  [
    "their tier renamed (each item shows its tier's name)",
    async () => {
      await member({ tier_id: tier });
      await expectExact();
      const res = await env.call("PUT", `/api/clubs/${env.clubId}/tiers/${tier}`, { body: { name: `Junior ${crypto.randomUUID().slice(0, 4)}` } });
      expect(res.status).toBe(200);
    },
  ],
  [
    "the club's grace period changed (each item's status counts it)",
    async () => {
      await member({ membership_end: addDays(todayUtc(), -2) });
      await expectExact();
      const [{ grace }] = await env.db.read.select({ grace: clubs.grace_period_days }).from(clubs).where(eq(clubs.id, env.clubId));
      const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { grace_period_days: grace === 0 ? 5 : 0 } });
      expect(res.status).toBe(200);
    },
  ],
  [
    "a member's row deleted (as erasure does)",
    async () => {
      const id = await member();
      await expectExact();
      await env.db.tx((t) => t.delete(members).where(eq(members.id, id)));
    },
  ],
  [
    "a write by another connection (the CLI's process)",
    async () => {
      const id = await member();
      await expectExact();
      await byAnotherConnection("UPDATE members SET payment_status = 'suspended' WHERE id = ?", id);
    },
  ],
  // The routes that rename a tier or change the grace period also queue the members' cards for an
  // update (a write to their rows); these change only what the list shows, as a hand or a script would.
  [
    "a tier's name changed by another connection, and nothing else",
    async () => {
      await member({ tier_id: tier });
      await expectExact();
      await byAnotherConnection("UPDATE tiers SET name = ? WHERE id = ?", `Junior ${crypto.randomUUID().slice(0, 4)}`, tier);
    },
  ],
  [
    "the grace period changed by another connection, and nothing else",
    async () => {
      await member({ membership_end: addDays(todayUtc(), -2) });
      await expectExact();
      await byAnotherConnection("UPDATE clubs SET grace_period_days = CASE grace_period_days WHEN 0 THEN 5 ELSE 0 END WHERE id = ?", env.clubId);
    },
  ],
];

describe("GET /api/clubs/:club_id/members total", () => {
  it("starts exact for every status filter", async () => {
    await member();
    await member({ payment_status: "pending" });
    await member({ membership_end: addDays(todayUtc(), -1) });
    await expectExact();
  });

  for (const [name, write] of WRITES) {
    it(`is exact right after: ${name}`, async () => {
      await expectExact(); // every count kept
      await write();
      await expectExact();
    });
  }

  it("is exact after a refused write (its transaction rolled back)", async () => {
    await expectExact();
    // All or nothing: one bad line and no line is written.
    const res = await importFile(
      env,
      `Prénom;Nom;Courriel;Fin abonnement\nOk;Line;ok-${crypto.randomUUID()}@test.org;31.12.2030\nBad;Line;not-an-email;31.12.2030\n`,
    );
    expect(res.body.written).toBe(false);
    await expectExact();
  });

  it("follows the day: a membership ending today is active, and expired once the day has passed", async () => {
    expect((await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { grace_period_days: 0 } })).status).toBe(200);
    await member({ membership_end: todayUtc() });
    await expectExact();
    const before = await totals();
    setSystemTime(new Date(Date.parse(`${addDays(todayUtc(), 1)}T00:00:01Z`)));
    const after = await totals();
    expect(after.active).toBeLessThan(before.active);
    expect(after.expired).toBeGreaterThan(before.expired);
    await expectExact();
  });

  it("counts every acknowledged write under concurrent writes and reads", async () => {
    const suspensions = await Promise.all(Array.from({ length: 5 }, () => member()));
    const base = (await truth()).all;
    let acknowledged = 0;
    const create = (i: number) =>
      env
        .call("POST", `/api/clubs/${env.clubId}/members/manual`, {
          body: { first_name: "Conc", last_name: `N${i}`, email: `c${i}-${crypto.randomUUID()}@test.org`, membership_end: addDays(todayUtc(), 10) },
        })
        .then(async (res) => {
          expect(res.status).toBe(201);
          acknowledged++;
          const seen = acknowledged;
          // A list asked after the write was acknowledged counts it, and counts nothing not yet sent.
          const total = (await list("status=active")).body.total;
          const all = (await list("status=all")).body.total;
          expect(all).toBeGreaterThanOrEqual(base + seen);
          expect(all).toBeLessThanOrEqual(base + 20);
          expect(total).toBeGreaterThan(0);
        });
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => create(i)),
      ...suspensions.map((id) => action(id, "suspend").then((r) => expect(r.status).toBe(200))),
      ...Array.from({ length: 10 }, () => list("status=suspended")),
    ]);
    await expectExact();
    expect((await totals()).all).toBe(base + 20);
  });
});

describe("GET /api/clubs/:club_id/members as production sends it (answers not checked against their schema)", () => {
  let prod: TestEnv;
  beforeAll(async () => {
    prod = await setup({ CHECK_RESPONSES: "false" });
  });
  afterAll(() => prod.close());
  const page = () => prod.call("GET", `/api/clubs/${prod.clubId}/members?sort=name`);

  it("sends a kept page as the same JSON each time, with its media type, and the new text after a write", async () => {
    const ids = [];
    for (const first_name of ["Anouk", "Bruno", "Chloé"]) ids.push((await seedMember(prod, { first_name })).id);
    const first = await page();
    const again = await page();
    expect(again.status).toBe(200);
    expect(again.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(again.text).toBe(first.text);
    expect(again.body.total).toBe(3);
    for (const item of again.body.items) expect(item).toEqual((await prod.call("GET", `/api/clubs/${prod.clubId}/members/${item.id}`)).body);

    expect((await prod.call("PATCH", `/api/clubs/${prod.clubId}/members/${ids[1]}`, { body: { first_name: "Bérénice" } })).status).toBe(200);
    const after = await page();
    expect(after.body.items.map((i: { first_name: string }) => i.first_name).sort()).toEqual(["Anouk", "Bérénice", "Chloé"]);
  });
});
