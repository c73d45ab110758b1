// GET, PATCH, DELETE /api/clubs/:club_id/members/:member_id, GET .../history and .../data-export
// (DESIGN.md section 12): each rule and refusal, with the database re-read.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import { appleRegistrations, checkIns, eventRegistrations, jobs, mailingRecipients, mailings, memberHistory, members, payments, scans } from "../../db/schema";
import { newId, nowIso } from "../../lib/ids";
import { authCases } from "../auth-cases";
import { createEventVia, insertPayment, insertTier } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { addDays, historyOf, memberRow, seedMember, todayUtc } from "../members-fixtures";
import { onPostgres } from "../databases";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const today = todayUtc();
const one = (id: string) => `/api/clubs/${env.clubId}/members/${id}`;
const passJobs = async () =>
  (await env.db.read.select().from(jobs).where(eq(jobs.kind, "wallet_pass_update"))).map((j) => j.payload.member_ids as string[] | null);

describe("authorization of the new member routes", () => {
  let id = "";
  beforeAll(async () => {
    id = (await seedMember(env)).id;
  });
  for (const [method, suffix, scope, body] of [
    ["GET", "", "members:view", undefined],
    ["PATCH", "", "members:edit", { first_name: "X" }],
    ["DELETE", "", "members:edit", undefined],
    ["GET", "/history", "members:view", undefined],
    ["GET", "/data-export", "members:view", undefined],
  ] as const) {
    authCases(() => env, { method, path: (e) => `/api/clubs/${e.clubId}/members/${id || "00000000-0000-4000-8000-000000000000"}${suffix}`, scope, body });
  }

  it("a view key gets 403 on PATCH and DELETE and nothing changes", async () => {
    const m = await seedMember(env, { first_name: "Viewonly" });
    const key = await env.makeKey({ members: "view" });
    expect((await env.call("PATCH", one(m.id), { key, body: { first_name: "Changed" } })).status).toBe(403);
    expect((await env.call("DELETE", one(m.id), { key })).status).toBe(403);
    const row = await memberRow(env, m.id);
    expect(row.first_name).toBe("Viewonly");
    expect(await historyOf(env, m.id)).toHaveLength(0);
    // ...while it may read.
    expect((await env.call("GET", one(m.id), { key })).status).toBe(200);
  });

  it("another club's member is a 404 on every route, and is left untouched", async () => {
    const other = await env.otherClub();
    const theirs = await seedMember(env, { first_name: "Theirs" }, other.club_id);
    for (const [method, suffix, body] of [
      ["GET", "", undefined],
      ["PATCH", "", { first_name: "Mine" }],
      ["DELETE", "", undefined],
      ["GET", "/history", undefined],
      ["GET", "/data-export", undefined],
    ] as const) {
      const res = await env.call(method, `${one(theirs.id)}${suffix}`, { body });
      expect(`${method} ${suffix} ${res.status} ${res.body.code}`).toBe(`${method} ${suffix} 404 MEMBER_NOT_FOUND`);
    }
    expect((await memberRow(env, theirs.id)).first_name).toBe("Theirs");
  });
});

describe("GET /api/clubs/:club_id/members/:member_id", () => {
  it("answers the member item with its derived status", async () => {
    const m = await seedMember(env, { first_name: "Gina", membership_end: addDays(today, -2) });
    const res = await env.call("GET", one(m.id));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: m.id, first_name: "Gina", status: "expired", referral_code: m.referral_code });
    expect(res.body.search_text).toBeUndefined();
  });

  it("an unknown id is a 404, a malformed one a 422", async () => {
    expect((await env.call("GET", one(newId()))).status).toBe(404);
    expect((await env.call("GET", one("nope"))).status).toBe(422);
  });
});

describe("PATCH /api/clubs/:club_id/members/:member_id", () => {
  it("changes only the fields sent, keeps search and name order in step, and writes one `update` row naming the fields", async () => {
    const m = await seedMember(env, { first_name: "Paula", last_name: "Alt", invoice_company_name: "Old SA" });
    const res = await env.call("PATCH", one(m.id), { body: { last_name: "Żółkiewska", invoice_company_name: null, acquisition_source: "flyer" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ first_name: "Paula", last_name: "Żółkiewska", invoice_company_name: null, acquisition_source: "flyer" });
    const row = await memberRow(env, m.id);
    expect(row.last_name).toBe("Żółkiewska");
    expect(row.search_text).toContain("zolkiewska");
    expect(row.sort_name.startsWith("zolkiewska")).toBe(true);
    const found = await env.call("GET", `/api/clubs/${env.clubId}/members?search=zolkiew`);
    expect(found.body.items.map((i: { id: string }) => i.id)).toContain(m.id);
    const history = await historyOf(env, m.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: "update", details: { fields: ["last_name", "invoice_company_name", "acquisition_source"] } });
    // The values are not in the row: they are personal data, erased with the member.
    expect(JSON.stringify(history[0])).not.toContain("Alt");
  });

  it("sending the stored values (or nothing) writes nothing", async () => {
    const m = await seedMember(env, { first_name: "Same" });
    const before = await memberRow(env, m.id);
    for (const body of [{}, { first_name: "Same", email: m.email.toUpperCase() }]) {
      const res = await env.call("PATCH", one(m.id), { body });
      expect(res.status).toBe(200);
    }
    expect(await historyOf(env, m.id)).toHaveLength(0);
    expect((await memberRow(env, m.id)).updated_at).toBe(before.updated_at);
  });

  it("another member's email is a 409 MEMBER_EMAIL_TAKEN, whatever its case, and nothing changes", async () => {
    const a = await seedMember(env, { email: "taken@test.org" });
    const b = await seedMember(env, { email: "free@test.org" });
    const res = await env.call("PATCH", one(b.id), { body: { email: "TAKEN@test.org", first_name: "Other" } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("MEMBER_EMAIL_TAKEN");
    const row = await memberRow(env, b.id);
    expect([row.email, row.first_name]).toEqual(["free@test.org", b.first_name]);
    expect(await historyOf(env, b.id)).toHaveLength(0);
    expect((await memberRow(env, a.id)).email).toBe("taken@test.org");
    // Its own email in another case is no conflict (stored lower-cased).
    const own = await env.call("PATCH", one(b.id), { body: { email: "NEW@Test.org" } });
    expect([own.status, own.body.email]).toEqual([200, "new@test.org"]);
  });

  it("a change the card shows queues a pass update; one it does not show queues none", async () => {
    const m = await seedMember(env);
    const before = (await passJobs()).filter((ids) => ids?.includes(m.id)).length;
    await env.call("PATCH", one(m.id), { body: { invoice_company_name: "ACME", payment_method: "cash" } });
    expect((await passJobs()).filter((ids) => ids?.includes(m.id)).length).toBe(before);
    expect((await memberRow(env, m.id)).pass_updated_at).toBeNull();
    await env.call("PATCH", one(m.id), { body: { first_name: "Renamed" } });
    expect((await passJobs()).filter((ids) => ids?.includes(m.id)).length).toBe(before + 1);
    expect((await memberRow(env, m.id)).pass_updated_at).not.toBeNull();
  });

  it("a membership_end correction needs a reason (422, nothing written), and is written to history with it", async () => {
    const m = await seedMember(env, { membership_end: addDays(today, 30) });
    const missing = await env.call("PATCH", one(m.id), { body: { membership_end: addDays(today, 10) } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(["body", "reason"]);
    expect(missing.body.detail[0].type).toBe("reason_required");
    expect((await memberRow(env, m.id)).membership_end).toBe(addDays(today, 30));
    const res = await env.call("PATCH", one(m.id), { body: { membership_end: addDays(today, 10), reason: "Typo in the import" } });
    expect(res.status).toBe(200);
    expect(res.body.membership_end).toBe(addDays(today, 10));
    const [h] = await historyOf(env, m.id);
    expect(h).toMatchObject({ action: "correction", from_end: addDays(today, 30), to_end: addDays(today, 10), reason: "Typo in the import" });
    // The end shows on the card: its pass is updated.
    expect((await passJobs()).some((ids) => ids?.includes(m.id))).toBe(true);
  });

  it("a membership_end before membership_start is a 422", async () => {
    const m = await seedMember(env, { membership_start: addDays(today, -5) });
    const res = await env.call("PATCH", one(m.id), { body: { membership_end: addDays(today, -6), reason: "x" } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ["body", "membership_end"], type: "membership_end_before_start" });
    expect((await memberRow(env, m.id)).membership_end).toBe(m.membership_end);
  });

  it("tier_id: a tier of the club sets it, null clears it, another club's tier is a 422", async () => {
    const tier = await insertTier(env, { name: "Silver" });
    const other = await env.otherClub();
    const theirTier = await insertTier(env, { clubId: other.club_id, name: "Theirs" });
    const m = await seedMember(env);
    const set = await env.call("PATCH", one(m.id), { body: { tier_id: tier.id } });
    expect([set.status, set.body.tier_id, set.body.tier_name]).toEqual([200, tier.id, "Silver"]);
    const refused = await env.call("PATCH", one(m.id), { body: { tier_id: theirTier.id } });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ["body", "tier_id"], type: "tier_not_found" });
    expect((await memberRow(env, m.id)).tier_id).toBe(tier.id);
    const cleared = await env.call("PATCH", one(m.id), { body: { tier_id: null } });
    expect([cleared.status, cleared.body.tier_id]).toEqual([200, null]);
    expect((await memberRow(env, m.id)).tier_id).toBeNull();
  });

  it("custom_fields are merged: keys sent replace, null removes a key, null clears all", async () => {
    const m = await seedMember(env, { custom_fields: { shirt: "M", licence: "123" } });
    const merged = await env.call("PATCH", one(m.id), { body: { custom_fields: { shirt: "L", licence: null, club: "Nord" } } });
    expect(merged.body.custom_fields).toEqual({ shirt: "L", club: "Nord" });
    const cleared = await env.call("PATCH", one(m.id), { body: { custom_fields: null } });
    expect(cleared.body.custom_fields).toBeNull();
    expect((await memberRow(env, m.id)).custom_fields).toBeNull();
  });

  it("refuses a null name and a bad email with 422, writing nothing", async () => {
    const m = await seedMember(env, { first_name: "Kept" });
    for (const body of [{ first_name: null }, { last_name: "  " }, { email: "not-an-email" }]) {
      expect((await env.call("PATCH", one(m.id), { body })).status).toBe(422);
    }
    expect((await memberRow(env, m.id)).first_name).toBe("Kept");
  });
});

describe("GET .../members/:member_id/history", () => {
  it("lists transitions, corrections and payments newest first, with the actor", async () => {
    const m = await seedMember(env, { membership_end: addDays(today, 30) });
    const key = await env.makeKey(env.allEdit);
    const prefix = key.slice(0, 12);
    await env.call("POST", `${one(m.id)}/actions/extend`, { key, body: { extend_months: 1, reason: "Goodwill" } });
    await env.call("POST", `${one(m.id)}/actions/mark-paid`, { body: { amount_cents: 4200, payment_method: "cash" } });
    await env.call("PATCH", one(m.id), { body: { membership_end: addDays(today, 400), reason: "Paid two years" } });
    // A payment outside any transition (an event ticket) and a row no admin wrote.
    const ticket = await insertPayment(env, { kind: "event", amount: 1500, paidAt: "2020-01-01T00:00:00.000Z", memberId: m.id });
    await env.db.tx((t) =>
      t.insert(memberHistory).values({
        id: newId(),
        club_id: env.clubId,
        member_id: m.id,
        action: "extend",
        to_status: "paid",
        to_end: m.membership_end,
        created_at: "2019-01-01T00:00:00.000Z",
      }),
    );
    const res = await env.call("GET", `${one(m.id)}/history`);
    expect(res.status).toBe(200);
    const items = res.body.items;
    expect(items.map((i: { kind: string }) => i.kind)).toEqual(["correction", "mark_paid", "extend", "payment", "extend"]);
    expect(items[0]).toMatchObject({ reason: "Paid two years", membership_end_after: addDays(today, 400), actor: `owner@test.org (${env.key.slice(0, 12)})` });
    expect(items[1]).toMatchObject({ amount_cents: 4200, payment_method: "cash", from_status: "paid", to_status: "paid" });
    expect(items[2]).toMatchObject({ reason: "Goodwill", actor: `owner@test.org (${prefix})` });
    expect(items[3]).toMatchObject({ id: ticket.id, amount_cents: 1500, payment_method: "bank_transfer", actor: "system" });
    expect(items[4].actor).toBe("system");
  });
});

describe("GET .../members/:member_id/data-export", () => {
  it("holds the member, history, payments, registrations (also by email) and scans", async () => {
    const m = await seedMember(env, { first_name: "Dora", email: "dora@test.org" });
    await env.call("POST", `${one(m.id)}/actions/mark-paid`, { body: { amount_cents: 100 } });
    const event = await createEventVia(env, { tickets: [{ name: "Guest", non_member_price_cents: 0 }] });
    await insertReg(event, { memberId: m.id, first: "Dora" });
    await insertReg(event, { email: "DORA@test.org", first: "Dora as a guest" });
    await insertReg(event, { email: "someone@test.org", first: "Someone" });
    await env.call("GET", `/api/verify/${m.referral_code}`);
    const res = await env.call("GET", `${one(m.id)}/data-export`);
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ id: m.id, first_name: "Dora", email: "dora@test.org" });
    expect(res.body.history.map((h: { kind: string }) => h.kind)).toEqual(["mark_paid"]);
    expect(res.body.payments).toHaveLength(1);
    expect(res.body.registrations.map((r: { first_name: string }) => r.first_name).sort()).toEqual(["Dora", "Dora as a guest"]);
    expect(res.body.registrations[0].event_title).toBe(event.title);
    expect(res.body.scans).toHaveLength(1);
    expect(res.body.scans[0].status).toBe("active");
  });

  it("holds the member's invoices and the mailings addressed to them (not another member's)", async () => {
    const m = await seedMember(env, { first_name: "Ines" });
    const other = await seedMember(env);
    const inv = await env.call("POST", "/api/clubs/" + env.clubId + "/invoices", {
      body: { member_id: m.id, lines: [{ label: "Cotisation", amount_cents: 4000 }] },
    });
    await env.call("POST", "/api/clubs/" + env.clubId + "/invoices", { body: { member_id: other.id, lines: [{ label: "Autre", amount_cents: 1000 }] } });
    const now = nowIso();
    const mailingId = newId();
    await env.db.tx(async (t) => {
      await t.insert(mailings).values({
        id: mailingId,
        club_id: env.clubId,
        subject: "Assemblée générale",
        body_markdown: "Hello",
        audience: {},
        status: "sent",
        created_at: now,
        updated_at: now,
        sent_at: now,
      });
      for (const [who, email] of [
        [m.id, m.email],
        [other.id, other.email],
      ] as const)
        await t.insert(mailingRecipients).values({
          id: newId(),
          club_id: env.clubId,
          mailing_id: mailingId,
          member_id: who,
          email: email as string,
          state: "sent",
          unsubscribe_token: newId(),
          created_at: now,
          sent_at: now,
        });
    });
    const res = await env.call("GET", `${one(m.id)}/data-export`);
    expect(res.status).toBe(200);
    expect(res.body.invoices).toEqual([
      expect.objectContaining({
        id: inv.body.id,
        number: inv.body.number,
        amount_cents: 4000,
        status: "open",
        reference: inv.body.reference,
        lines: [{ label: "Cotisation", amount_cents: 4000 }],
      }),
    ]);
    expect(res.body.mailings).toEqual([
      { mailing_id: mailingId, subject: "Assemblée générale", email: m.email, state: "sent", error: null, sent_at: now, created_at: now },
    ]);
  });
});

async function insertReg(
  event: { id: string; tickets: { id: string }[] },
  opts: { memberId?: string; email?: string; first: string; last?: string; checkedIn?: boolean },
) {
  const now = nowIso();
  const [row] = await env.db.tx((t) =>
    t
      .insert(eventRegistrations)
      .values({
        id: newId(),
        club_id: env.clubId,
        event_id: event.id,
        ticket_id: event.tickets[0].id,
        member_id: opts.memberId ?? null,
        is_member: !!opts.memberId,
        first_name: opts.first,
        last_name: opts.last ?? "Reg",
        email: opts.email ?? null,
        qr_token: `QR${newId().replace(/-/g, "")}`,
        status: "confirmed",
        amount_cents: 700,
        currency: "CHF",
        checked_in_at: opts.checkedIn ? now : null,
        created_at: now,
        updated_at: now,
      })
      .returning(),
  );
  return row;
}

describe("DELETE /api/clubs/:club_id/members/:member_id (erasure)", () => {
  // Names nothing else in the database holds, so finding them in the file means they were not erased.
  const FIRST = "Zephyrinette";
  const LAST = "Quaglioborg";
  const EMAIL = "zephyrinette.q@erase-test.org";
  const REASON = `Asked by ${FIRST} on the phone`;

  it("leaves no trace of the member's name or email in the database file; stats, lists, exports and verify follow", async () => {
    const {
      env: e,
      id,
      code,
      serial,
      event,
    } = await (async () => {
      const e2 = await setup();
      const call = e2.call;
      const created = await call("POST", `/api/clubs/${e2.clubId}/members/manual`, {
        body: { first_name: FIRST, last_name: LAST, email: EMAIL, membership_end: addDays(today, 200), custom_fields: { note: `${LAST} family` } },
        // Its kept answer (24 h, for a replay) names the member too.
        headers: { "idempotency-key": "erase-test-create" },
      });
      const mid = created.body.id as string;
      const path = `/api/clubs/${e2.clubId}/members/${mid}`;
      await call("POST", `${path}/actions/suspend`, { body: { reason: REASON } });
      await call("POST", `${path}/actions/reactivate`, { body: { reason: `${LAST} paid` } });
      await call("POST", `${path}/actions/mark-paid`, { body: { amount_cents: 5000, reason: `Cash from ${FIRST}` } });
      await call("POST", `${path}/send-card-email`);
      // Two registrations with the member's email (its erasure finds both): the event allows two a mailbox.
      const ev = await createEventVia(e2, { max_per_email: 2, tickets: [{ name: "Entry", member_price_cents: 0, non_member_price_cents: 1200 }] });
      return { env: e2, id: mid, code: created.body.referral_code as string, serial: created.body.pass_serial_number as string, event: ev };
    })();
    try {
      const base = `/api/clubs/${e.clubId}`;
      // Registrations: as a member (checked in with the card code) and as a guest with the email.
      const pub = async (body: Record<string, unknown>) =>
        e.call("POST", `/api/public/events/${event.id}/registrations`, { key: null, body: { ticket_id: event.tickets[0].id, ...body } });
      const asMember = await pub({ first_name: FIRST, last_name: LAST, email: EMAIL, member_code: code });
      expect(asMember.status).toBe(201);
      const guest = await pub({ first_name: `${FIRST} B`, last_name: LAST, email: EMAIL.toUpperCase() });
      expect(guest.status).toBe(201);
      expect((await e.call("POST", `${base}/events/${event.id}/checkin`, { body: { code } })).body.verdict).toBe("valid");
      await e.call("GET", `/api/verify/${serial}`);
      // A wallet registration and a queued mail job that name the member.
      const now = nowIso();
      await e.db.tx(async (t) => {
        await t.insert(appleRegistrations).values({
          id: newId(),
          club_id: e.clubId,
          member_id: id,
          device_library_id: "dev1",
          pass_type_id: "pass.x",
          push_token: "tok",
          created_at: now,
          updated_at: now,
        });
        await t
          .insert(jobs)
          .values({ id: newId(), club_id: e.clubId, kind: "mail", payload: { to: EMAIL, name: `${FIRST} ${LAST}` }, run_after: now, created_at: now });
        await t.insert(jobs).values({
          id: newId(),
          club_id: e.clubId,
          kind: "mail",
          payload: { to: "x@y.org" },
          last_error: `550 ${EMAIL} unknown`,
          run_after: now,
          created_at: now,
        });
      });
      // Another member, and money of others: none of it may change.
      const other = await seedMember(e, { first_name: "Otto", email: "otto@test.org" });
      await e.call("POST", `${base}/members/${other.id}/actions/mark-paid`, { body: { amount_cents: 3000 } });

      // SQLite: the file itself (secure_delete zeroes what is deleted). PostgreSQL: what a backup
      // of the database holds (pg_dump; dead row versions go at the next vacuum).
      const fileHas = (text: string) => {
        if (onPostgres) return Bun.spawnSync(["pg_dump", "--data-only", `--dbname=${e.config.databaseUrl}`]).stdout.includes(Buffer.from(text, "utf8"));
        e.db.raw.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        return readFileSync(e.config.databaseUrl).includes(Buffer.from(text, "utf8"));
      };
      // The test can fail: before the erasure the file holds them.
      for (const text of [FIRST, LAST, EMAIL, REASON]) expect(`${text}: ${fileHas(text)}`).toBe(`${text}: true`);
      const statsBefore = (await e.call("GET", `${base}/stats`)).body;
      const scansBefore = (await e.call("GET", `${base}/attendance`)).body;
      const regsBefore = await e.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id));

      const res = await e.call("DELETE", `${base}/members/${id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe("");

      for (const text of [FIRST, LAST, EMAIL, EMAIL.toUpperCase(), REASON]) expect(`${text}: ${fileHas(text)}`).toBe(`${text}: false`);

      // Stats stay true: revenue unchanged; the member counts lose the member.
      const statsAfter = (await e.call("GET", `${base}/stats`)).body;
      expect(statsAfter.revenue).toEqual(statsBefore.revenue);
      expect(statsAfter.members.total).toBe(statsBefore.members.total - 1);
      expect(statsAfter.members.active).toBe(statsBefore.members.active - 1);
      const scansAfter = (await e.call("GET", `${base}/attendance`)).body;
      expect([scansAfter.total_scans, scansAfter.unique_members]).toEqual([scansBefore.total_scans, scansBefore.unique_members]);

      // Gone from every read of the API.
      expect((await e.call("GET", `${base}/members/${id}`)).status).toBe(404);
      expect((await e.call("GET", `${base}/members/${id}/history`)).status).toBe(404);
      expect((await e.call("GET", `${base}/members/${id}/data-export`)).status).toBe(404);
      expect((await e.call("DELETE", `${base}/members/${id}`)).status).toBe(404);
      const list = await e.call("GET", `${base}/members?limit=1000`);
      expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([other.id]);
      expect(list.body.total).toBe(1);
      const csv = await e.call("GET", `${base}/members/export`);
      expect(csv.text).not.toContain(id);
      expect(csv.headers.get("x-total-count")).toBe("1");
      for (const c of [code, serial]) {
        const v = await e.call("GET", `/api/verify/${c}`);
        expect([v.body.valid, v.body.status, v.body.member]).toEqual([false, "unknown", null]);
      }
      expect((await e.call("GET", `/c/${serial}`, { key: null })).status).toBe(404);

      // What stays, anonymous: payments, registrations' amounts and statuses, history rows, scans.
      const pays = await e.db.read.select().from(payments).where(eq(payments.member_id, id));
      expect(pays.map((p) => [p.amount_cents, p.reason])).toEqual([[5000, null]]);
      const regsAfter = await e.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id));
      expect(regsAfter.map((r) => [r.id, r.status, r.amount_cents, r.checked_in_at]).sort()).toEqual(
        regsBefore.map((r) => [r.id, r.status, r.amount_cents, r.checked_in_at]).sort(),
      );
      for (const r of regsAfter) expect([r.first_name, r.last_name, r.email, r.custom_fields]).toEqual(["", "", null, null]);
      expect(regsAfter.map((r) => r.qr_token)).not.toContain(asMember.body.qr_token);
      const history = await e.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, id));
      expect(history.map((h) => h.action).sort()).toEqual(["card_email_sent", "erase", "manual_create", "mark_paid", "reactivate", "suspend"]);
      for (const h of history) expect(h.reason).toBeNull();
      expect(history.find((h) => h.action === "mark_paid")?.details).toMatchObject({ amount_cents: 5000 });
      expect(history.find((h) => h.action === "card_email_sent")?.details).toBeNull();
      const memberScans = await e.db.read.select().from(scans).where(eq(scans.member_id, id));
      expect(memberScans.length).toBe(1);
      expect(memberScans[0].code).toBe("");
      const codes = (await e.db.read.select().from(checkIns).where(eq(checkIns.club_id, e.clubId))).map((c) => c.code);
      expect(codes).toEqual([""]);
      expect(await e.db.read.select().from(appleRegistrations).where(eq(appleRegistrations.member_id, id))).toHaveLength(0);
      // The erased member's mail is gone; Otto's payment receipt stays.
      const mailLeft = await e.db.read
        .select()
        .from(jobs)
        .where(and(eq(jobs.club_id, e.clubId), eq(jobs.kind, "mail")));
      expect(mailLeft.map((j) => (j.payload as { message: { to: string } }).message.to)).toEqual(["otto@test.org"]);
      // The other member is untouched, and the email may join again.
      expect((await memberRow(e, other.id)).first_name).toBe("Otto");
      const again = await e.call("POST", `${base}/members/manual`, {
        body: { first_name: "New", last_name: "Start", email: EMAIL, membership_end: addDays(today, 10) },
      });
      expect(again.status).toBe(201);
      expect(await e.db.read.select().from(members).where(eq(members.id, id))).toHaveLength(0);
    } finally {
      await e.close();
    }
  });
});
