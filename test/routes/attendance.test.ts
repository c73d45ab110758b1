// GET /api/clubs/:club_id/attendance
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count } from "drizzle-orm";
import { scans } from "../../db/schema";
import { attendanceRange } from "../../lib/attendance";
import { authCases } from "../auth-cases";
import { addMember, addScan, addTier, dayOffset } from "../card-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const attendance = (query = "", key?: string) => env.call("GET", `/api/clubs/${env.clubId}/attendance${query}`, { key });
const at = (day: string, time = "12:00:00.000") => `${day}T${time}Z`;

describe("GET /api/clubs/:club_id/attendance", () => {
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/attendance`, scope: "access_control:view" });

  it("no filter means today: scans of today only, with member names and tier, newest first", async () => {
    const tier = await addTier(env, { name: "Silver" });
    const m = await addMember(env, { first_name: "Jean", last_name: "Dupont", tier_id: tier.id });
    const today = dayOffset(0);
    await addScan(env, { at: at(dayOffset(-1), "23:59:59.999"), memberId: m.id });
    const early = await addScan(env, { at: at(today, "00:00:00.000"), memberId: m.id });
    const late = await addScan(env, { at: at(today, "00:00:01.000"), code: "ZZZ" });
    // Through the route, so that a real scan is in the list too.
    const verified = await env.call("GET", `/api/verify/${m.referral_code}`);
    const res = await attendance();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date: today, from_date: today, to_date: today, total_scans: 3, unique_members: 1 });
    expect(res.body.scans.map((s: { id: string }) => s.id).slice(1)).toEqual([late.id, early.id]);
    expect(res.body.scans[0]).toEqual({
      id: expect.any(String),
      member_id: m.id,
      first_name: "Jean",
      last_name: "Dupont",
      tier_name: "Silver",
      status: "active",
      scanned_at: verified.body.scanned_at,
    });
    expect(res.body.scans[1]).toEqual({
      id: late.id,
      member_id: null,
      first_name: null,
      last_name: null,
      tier_name: null,
      status: "unknown",
      scanned_at: late.scanned_at,
    });
    const same = await attendance("?period=today");
    expect(same.body).toEqual(res.body);
  });

  it("a date range is inclusive on both ends; unique_members counts distinct members (not unknown codes)", async () => {
    const a = await addMember(env);
    const b = await addMember(env, { first_name: "Bob" });
    await addScan(env, { at: at("2025-03-09", "23:59:59.999"), memberId: a.id });
    await addScan(env, { at: at("2025-03-10", "00:00:00.000"), memberId: a.id });
    await addScan(env, { at: at("2025-03-10", "18:00:00.000"), memberId: a.id });
    await addScan(env, { at: at("2025-03-11"), memberId: b.id, status: "expired" });
    await addScan(env, { at: at("2025-03-12", "23:59:59.999") });
    await addScan(env, { at: at("2025-03-12", "23:59:59.999") });
    await addScan(env, { at: at("2025-03-13", "00:00:00.000"), memberId: b.id });
    const res = await attendance("?from=2025-03-10&to=2025-03-12");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date: null, from_date: "2025-03-10", to_date: "2025-03-12", total_scans: 5, unique_members: 2 });
    expect(res.body.scans).toHaveLength(5);
    const one = await attendance("?date=2025-03-10");
    expect(one.body).toMatchObject({ date: "2025-03-10", from_date: "2025-03-10", to_date: "2025-03-10", total_scans: 2, unique_members: 1 });
    const sameDay = await attendance("?from=2025-03-11&to=2025-03-11");
    expect(sameDay.body).toMatchObject({ date: "2025-03-11", total_scans: 1, unique_members: 1 });
    expect(sameDay.body.scans[0]).toMatchObject({ member_id: b.id, first_name: "Bob", status: "expired" });
  });

  it("`from` alone runs through today", async () => {
    const res = await attendance(`?from=${dayOffset(-3)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from_date: dayOffset(-3), to_date: dayOffset(0) });
  });

  it("another club's scans never appear", async () => {
    const other = await env.otherClub();
    await addScan(env, { at: at("2025-04-01"), clubId: other.club_id });
    const res = await attendance("?date=2025-04-01");
    expect(res.body).toMatchObject({ total_scans: 0, unique_members: 0, scans: [] });
  });

  it("lists the 1000 most recent scans but counts them all", async () => {
    const m = await addMember(env);
    await env.db.tx(async (t) => {
      const rows = Array.from({ length: 1003 }, (_, i) => ({
        id: crypto.randomUUID(),
        club_id: env.clubId,
        member_id: i % 2 ? m.id : null,
        code: "X",
        status: i % 2 ? "active" : "unknown",
        scanned_at: new Date(Date.parse("2025-05-05T08:00:00Z") + i * 1000).toISOString(),
      }));
      for (let i = 0; i < rows.length; i += 200) await t.insert(scans).values(rows.slice(i, i + 200));
    });
    const res = await attendance("?date=2025-05-05");
    expect(res.body.total_scans).toBe(1003);
    expect(res.body.unique_members).toBe(1);
    expect(res.body.scans).toHaveLength(1000);
    expect(res.body.scans[0].scanned_at).toBe(new Date(Date.parse("2025-05-05T08:00:00Z") + 1002 * 1000).toISOString());
    expect(res.body.scans[999].scanned_at).toBe(new Date(Date.parse("2025-05-05T08:00:00Z") + 3 * 1000).toISOString());
  });

  describe("periods", () => {
    // The boundaries, computed here independently of lib/attendance.
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const dow = now.getUTCDay() === 0 ? 7 : now.getUTCDay();
    const monday = dayOffset(1 - dow, now);
    const sunday = dayOffset(7 - dow, now);
    const y = now.getUTCFullYear();
    const mm = String(now.getUTCMonth() + 1).padStart(2, "0");
    const monthFirst = `${y}-${mm}-01`;
    const monthLast = new Date(Date.UTC(y, now.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    const cases = [
      ["today", today, today],
      ["week", monday, sunday],
      ["month", monthFirst, monthLast],
      ["year", `${y}-01-01`, `${y}-12-31`],
    ] as const;

    for (const [period, from, to] of cases) {
      it(`period=${period} covers ${from} to ${to}, both ends included, nothing outside`, async () => {
        const other = await env.otherClub();
        const e2 = { ...env, clubId: other.club_id } as TestEnv;
        const m = await addMember(e2, { club_id: other.club_id });
        await addScan(e2, { at: at(dayOffset(-1, new Date(`${from}T00:00:00Z`)), "23:59:59.999"), memberId: m.id });
        await addScan(e2, { at: at(from, "00:00:00.000"), memberId: m.id });
        await addScan(e2, { at: at(to, "23:59:59.999") });
        await addScan(e2, { at: at(dayOffset(1, new Date(`${to}T00:00:00Z`)), "00:00:00.000"), memberId: m.id });
        const res = await env.call("GET", `/api/clubs/${other.club_id}/attendance?period=${period}`, { key: other.api_key });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ from_date: from, to_date: to, total_scans: 2, unique_members: 1 });
        expect(res.body.date).toBe(from === to ? from : null);
      });
    }

    it("week is Monday to Sunday for every day of a week (a Sunday belongs to the week before)", () => {
      // 2026-11-16 is a Monday.
      for (let i = 0; i < 7; i++)
        expect(attendanceRange({ period: "week" }, new Date(Date.UTC(2026, 10, 16 + i, 15)))).toEqual({ from: "2026-11-16", to: "2026-11-22" });
      expect(attendanceRange({ period: "week" }, new Date(Date.UTC(2026, 10, 23, 0)))).toEqual({ from: "2026-11-23", to: "2026-11-29" });
      expect(attendanceRange({ period: "month" }, new Date(Date.UTC(2024, 1, 10)))).toEqual({ from: "2024-02-01", to: "2024-02-29" });
      expect(attendanceRange({ period: "year" }, new Date(Date.UTC(2024, 11, 31, 23)))).toEqual({ from: "2024-01-01", to: "2024-12-31" });
    });
  });

  describe("422 refusals", () => {
    const cases: [string, string, (string | number)[]][] = [
      ["a date that does not exist", "?date=2025-02-30", ["query", "date"]],
      ["a malformed date", "?date=yesterday", ["query", "date"]],
      ["a malformed from", "?from=2025-1-1&to=2025-01-31", ["query", "from"]],
      ["a malformed to", "?from=2025-01-01&to=31.01.2025", ["query", "to"]],
      ["from after to", "?from=2025-02-01&to=2025-01-31", ["query", "to"]],
      ["from in the future without to", `?from=${dayOffset(2)}`, ["query", "from"]],
      ["to without from", "?to=2025-01-31", ["query", "from"]],
      ["date with from/to", "?date=2025-01-01&from=2025-01-01&to=2025-01-02", ["query", "from"]],
      ["date with to", "?date=2025-01-01&to=2025-01-02", ["query", "to"]],
      ["period with date", "?period=week&date=2025-01-01", ["query", "period"]],
      ["an unknown period", "?period=decade", ["query", "period"]],
    ];
    for (const [name, query, loc] of cases) {
      it(`${name} -> 422 at ${loc.join(".")}`, async () => {
        const before = (await env.db.read.select({ n: count() }).from(scans))[0].n;
        const res = await attendance(query);
        expect(res.status).toBe(422);
        expect(res.body.code).toBe("VALIDATION_FAILED");
        expect(res.body.detail[0].loc).toEqual(loc);
        expect(res.body.detail[0].msg).toEqual(expect.any(String));
        expect((await env.db.read.select({ n: count() }).from(scans))[0].n).toBe(before);
      });
    }

    it("the detail is in the club's language (fr by default)", async () => {
      const res = await attendance("?from=2025-02-01&to=2025-01-31");
      expect(res.body.detail[0]).toEqual({ loc: ["query", "to"], msg: "« to » ne peut pas précéder « from ».", type: "attendance_range_order" });
    });
  });

  it("is documented as a stable route answering AttendanceResponse with ScanEntry items", async () => {
    const spec = (await env.call("GET", "/api/public/openapi.json", { key: null })).body;
    const op = spec.paths["/api/clubs/{club_id}/attendance"].get;
    expect(op["x-stable"]).toBe(true);
    expect(op.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/AttendanceResponse");
    expect(spec.components.schemas.AttendanceResponse.properties.scans.items.$ref).toBe("#/components/schemas/ScanEntry");
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["date", "from", "to", "period"]));
  });
});
