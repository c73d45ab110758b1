// Dunning (issue 27, DESIGN.md section 20) with a frozen clock: `runDunning` and the CLI's --date
// take the day. The club's settings (read and written like the others, 422 naming the field);
// each level at its day after due_on, once, also with runs at once (both engines); the fee line
// with the second level, once; the suspension after the last; never for a cancelled or paid
// invoice; the mails through a real SMTP server, in the club's language, the PDF attached;
// `invoice.overdue`; the CLI's JSON; the hourly job.
import { beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, invoices, jobs, members } from "../../db/schema";
import { siteOf } from "../../lib/context";
import { todayUtc } from "../../lib/days";
import { DUNNING_RUN, dunningSchedule, runDunning } from "../../lib/dues/dunning";
import { runDueJobs } from "../../lib/jobs";
import { main } from "../../scripts/cli";
import { JOB_KINDS } from "../../server/jobs";
import type { TestEnv } from "../helpers";
import { addDays, seedMember, withEndpoint } from "../members-fixtures";
import { header, mailedEnv, type Received, textOf } from "../smtp";

const DUE = "2031-01-31";
const box = mailedEnv({ RATE_LIMIT_PER_MINUTE: "100000000" });
let env: TestEnv;
beforeAll(() => {
  env = box.env;
});

const run = (today: string, clubId: string) => runDunning(env.db, { site: siteOf(env.config), today, clubId });
const deliver = () => box.deliver();
const invoiceOf = async (id: string) => (await env.db.read.select().from(invoices).where(eq(invoices.id, id)))[0];

/** A club of its own, its settings written through PUT /api/clubs/<id>. */
async function freshClub(settings: Record<string, unknown> = {}) {
  const club = await env.otherClub();
  if (Object.keys(settings).length) {
    const res = await env.call("PUT", `/api/clubs/${club.club_id}`, { key: club.api_key, body: settings });
    expect(res.status).toBe(200);
  }
  return { clubId: club.club_id, key: club.api_key };
}

/** An open invoice of 80.00 due on DUE, for a new member of the club. */
async function overdueInvoice(c: { clubId: string; key: string }, over: { first_name?: string } = {}) {
  const member = await seedMember(env, { first_name: over.first_name ?? "Léa" }, c.clubId);
  const res = await env.call("POST", `/api/clubs/${c.clubId}/invoices`, {
    key: c.key,
    body: { member_id: member.id, issued_on: "2031-01-01", due_on: DUE, lines: [{ label: "Cotisation 2031", amount_cents: 8000 }] },
  });
  expect(res.status).toBe(201);
  return { member, invoice: res.body as { id: string; number: string } };
}

describe("club settings", () => {
  it("show the defaults to the treasurer: levels at 10 and 30 days, no fee, no suspension, no renewal invoices", async () => {
    const c = await freshClub();
    const res = await env.call("GET", `/api/clubs/${c.clubId}`, { key: c.key });
    expect(res.body).toMatchObject({ dunning_days: [10, 30], dunning_fee_cents: 0, suspend_after_dunning: false, renewal_invoices: false });
  });

  it("are written with finances:edit; bad values are a 422 naming the field", async () => {
    const c = await freshClub();
    const path = `/api/clubs/${c.clubId}`;
    const ok = await env.call("PUT", path, {
      key: c.key,
      body: { dunning_days: [5, 15, 45], dunning_fee_cents: 1000, suspend_after_dunning: true, renewal_invoices: true },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ dunning_days: [5, 15, 45], dunning_fee_cents: 1000, suspend_after_dunning: true, renewal_invoices: true });
    for (const [field, value] of [
      ["dunning_days", [30, 10]],
      ["dunning_days", [10, 10]],
      ["dunning_days", [0, 10]],
      ["dunning_days", [1, 2, 3, 4]],
      ["dunning_fee_cents", -1],
      ["suspend_after_dunning", "yes"],
    ] as const) {
      const res = await env.call("PUT", path, { key: c.key, body: { [field]: value } });
      expect({ field, status: res.status, loc: res.body.detail?.[0]?.loc?.[1] }).toEqual({ field, status: 422, loc: field });
    }
    const order = await env.call("PUT", path, { key: c.key, body: { dunning_days: [30, 10] } });
    expect(order.body.detail[0].msg).toContain("croissant");
    const pageEdit = await env.makeKey({ page: "edit" });
    expect((await env.call("PUT", `/api/clubs/${env.clubId}`, { key: pageEdit, body: { dunning_fee_cents: 5 } })).status).toBe(403);
    const [row] = await env.db.read.select().from(clubs).where(eq(clubs.id, c.clubId));
    expect({ days: row.dunning_days, fee: row.dunning_fee_cents }).toEqual({ days: [5, 15, 45], fee: 1000 });
  });
});

describe("runDunning", () => {
  it("raises each level on its day after due_on, once, and mails it in the club's language with the PDF", async () => {
    const c = await freshClub();
    const { member, invoice } = await overdueInvoice(c);
    const days: [string, number][] = [
      [addDays(DUE, 9), 0],
      [addDays(DUE, 10), 1],
      [addDays(DUE, 10), 0],
      [addDays(DUE, 29), 0],
      [addDays(DUE, 30), 1],
      [addDays(DUE, 30), 0],
      [addDays(DUE, 90), 0],
    ];
    const got: number[] = [];
    const levels: number[] = [];
    const mails: Received[][] = [];
    for (const [day] of days) {
      got.push((await run(day, c.clubId)).reminded);
      levels.push((await invoiceOf(invoice.id)).dunning_level);
      mails.push(await deliver());
    }
    expect(got).toEqual(days.map(([, n]) => n));
    expect(levels).toEqual([0, 1, 1, 1, 2, 2, 2]);
    expect(mails.map((m) => m.length)).toEqual(days.map(([, n]) => n));
    const [first] = mails[1];
    expect(first.to).toEqual([member.email]);
    expect(header(first.raw, "Subject")).toBe(`Rappel : facture ${invoice.number} de Autre club`);
    expect(textOf(first.raw)).toContain("il reste 80,00");
    expect(first.raw).toMatch(/Content-Type: application\/pdf; name=facture-\d{4}-\d{4}\.pdf/);
    expect(header(mails[4][0].raw, "Subject")).toBe(`Dernier rappel : facture ${invoice.number} de Autre club`);
    expect((await invoiceOf(invoice.id)).last_reminded_at?.slice(0, 10)).toBe(addDays(DUE, 30));
  });

  it("catching up after a pause mails the first level now and the next after the club's gap", async () => {
    const c = await freshClub();
    const { invoice } = await overdueInvoice(c);
    expect((await run(addDays(DUE, 60), c.clubId)).by_level).toEqual({ "1": 1, "2": 0, "3": 0 });
    expect((await run(addDays(DUE, 61), c.clubId)).reminded).toBe(0);
    expect((await run(addDays(DUE, 80), c.clubId)).by_level).toEqual({ "1": 0, "2": 1, "3": 0 });
    expect((await invoiceOf(invoice.id)).dunning_level).toBe(2);
    await deliver();
  });

  it("adds the fee as a line with the second reminder, once", async () => {
    const c = await freshClub({ dunning_days: [5, 10, 20], dunning_fee_cents: 500, locale: "de" });
    const { invoice } = await overdueInvoice(c);
    const results = [];
    for (const day of [5, 10, 20]) {
      results.push((await run(addDays(DUE, day), c.clubId)).fees_added);
      const row = await invoiceOf(invoice.id);
      results.push(row.amount_cents, row.lines.length);
    }
    expect(results).toEqual([0, 8000, 1, 1, 8500, 2, 0, 8500, 2]);
    const row = await invoiceOf(invoice.id);
    expect(row.lines[1]).toEqual({ label: "Mahngebühr", amount_cents: 500 });
    // The three mails go out side by side (each its own job): read them by subject.
    const mails = new Map((await deliver()).map((m) => [header(m.raw, "Subject").split(":")[0], textOf(m.raw)]));
    expect([...mails.keys()].sort()).toEqual(["2. Mahnung", "Letzte Mahnung", "Zahlungserinnerung"]);
    expect(mails.get("2. Mahnung")).toMatch(/Mahngebühr von 5,00\sCHF/);
    expect(mails.get("2. Mahnung")).toMatch(/es bleiben 85,00\sCHF/);
    expect(mails.get("Letzte Mahnung")).not.toContain("Mahngebühr von");
  });

  it("suspends the member after the last level when the club asks for it", async () => {
    const c = await freshClub({ dunning_days: [10], suspend_after_dunning: true, locale: "en" });
    const { member, invoice } = await overdueInvoice(c);
    expect(await run(addDays(DUE, 10), c.clubId)).toEqual({ reminded: 1, by_level: { "1": 1, "2": 0, "3": 0 }, fees_added: 0, suspended: 1 });
    const [m] = await env.db.read.select().from(members).where(eq(members.id, member.id));
    expect(m.payment_status).toBe("suspended");
    expect((await invoiceOf(invoice.id)).dunning_level).toBe(1);
    const [mail] = await deliver();
    expect(textOf(mail.raw)).toContain("Your membership is suspended until it is paid.");
    // Without the setting the member stays as they are.
    const kept = await freshClub({ dunning_days: [10] });
    const other = await overdueInvoice(kept);
    expect((await run(addDays(DUE, 10), kept.clubId)).suspended).toBe(0);
    expect((await env.db.read.select().from(members).where(eq(members.id, other.member.id)))[0].payment_status).toBe("paid");
    await deliver();
  });

  it("never reminds a cancelled or paid invoice, nor mails a reminder whose invoice was paid before it went out", async () => {
    const c = await freshClub();
    const cancelled = await overdueInvoice(c);
    const paid = await overdueInvoice(c);
    const late = await overdueInvoice(c);
    expect((await env.call("POST", `/api/clubs/${c.clubId}/invoices/${cancelled.invoice.id}/actions/cancel`, { key: c.key })).status).toBe(200);
    await env.db.tx((t) => t.update(invoices).set({ status: "paid", paid_cents: 8000 }).where(eq(invoices.id, paid.invoice.id)));
    expect((await run(addDays(DUE, 10), c.clubId)).reminded).toBe(1);
    expect((await invoiceOf(cancelled.invoice.id)).dunning_level).toBe(0);
    expect((await invoiceOf(paid.invoice.id)).dunning_level).toBe(0);
    // Paid between the level and its mail: the mail is not sent.
    await env.db.tx((t) => t.update(invoices).set({ status: "paid", paid_cents: 8000 }).where(eq(invoices.id, late.invoice.id)));
    expect(await deliver()).toEqual([]);
    const [job] = await env.db.read
      .select()
      .from(jobs)
      .where(and(eq(jobs.club_id, c.clubId), eq(jobs.kind, "invoice_mail")));
    expect(job).toMatchObject({ status: "done", outcome: "invoice paid meanwhile: reminder not sent" });
  });

  it("runs at once raise and mail each level once", async () => {
    const c = await freshClub();
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await overdueInvoice(c));
    const runs = await Promise.all([1, 2, 3].map(() => run(addDays(DUE, 10), c.clubId)));
    expect(runs.reduce((n, r) => n + r.reminded, 0)).toBe(12);
    const queued = await env.db.read
      .select()
      .from(jobs)
      .where(and(eq(jobs.club_id, c.clubId), eq(jobs.kind, "invoice_mail")));
    expect(queued).toHaveLength(12);
    expect((await deliver()).length).toBe(12);
  });

  it("fires invoice.overdue with the invoice at its new level", async () => {
    await withEndpoint(env, ["invoice.overdue"], async (sent) => {
      const { invoice } = await overdueInvoice({ clubId: env.clubId, key: env.key });
      await run(addDays(DUE, 10), env.clubId);
      const payloads = (await sent()).map((d) => JSON.parse(d.payload));
      expect(payloads).toHaveLength(1);
      expect(payloads[0]).toMatchObject({ type: "invoice.overdue", data: { id: invoice.id, dunning_level: 1, overdue: true, status: "open" } });
    });
    await deliver();
  });
});

describe("the CLI and the schedule", () => {
  it("`dunning run --date D --json` answers what it raised; a second run raises nothing", async () => {
    const c = await freshClub();
    await overdueInvoice(c);
    const cli = async (args: string[]) => {
      const out: string[] = [];
      const code = await main(args, { out: (s) => out.push(s), err: () => {} }, { DATABASE_URL: env.config.databaseUrl, LOG_LEVEL: "silent" });
      return { code, json: out.length ? JSON.parse(out.join("\n")) : null };
    };
    const first = await cli(["dunning", "run", "--date", addDays(DUE, 10), "--club", c.clubId, "--json"]);
    expect(first).toEqual({ code: 0, json: { reminded: 1, by_level: { "1": 1, "2": 0, "3": 0 }, fees_added: 0, suspended: 0 } });
    expect((await cli(["dunning", "run", "--date", addDays(DUE, 10), "--club", c.clubId, "--json"])).json.reminded).toBe(0);
    expect((await cli(["dunning", "run", "--date", "2031-02-30", "--json"])).code).toBe(2);
    await deliver();
  });

  it("the server runs it hourly, as of its clock", async () => {
    const c = await freshClub();
    const member = await seedMember(env, {}, c.clubId);
    const due = addDays(todayUtc(), -11);
    const made = await env.call("POST", `/api/clubs/${c.clubId}/invoices`, {
      key: c.key,
      body: { member_id: member.id, issued_on: addDays(due, -30), due_on: due, lines: [{ label: "Cotisation", amount_cents: 4000 }] },
    });
    await dunningSchedule.ensure(env.db);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date() });
    expect((await invoiceOf(made.body.id)).dunning_level).toBe(1);
    const pending = await env.db.read
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, DUNNING_RUN), eq(jobs.status, "pending")));
    expect(pending).toHaveLength(1);
    await deliver();
  });
});
