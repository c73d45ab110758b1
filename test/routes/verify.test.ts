// GET /api/verify/:serial
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count, desc } from "drizzle-orm";
import { auditLog, scans } from "../../db/schema";
import { authCases } from "../auth-cases";
import { addMember, addTier, dayOffset } from "../card-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const verify = (serial: string, key?: string) => env.call("GET", `/api/verify/${encodeURIComponent(serial)}`, { key });
const lastScan = async () => (await env.db.read.select().from(scans).orderBy(desc(scans.scanned_at), desc(scans.id)).limit(1))[0];
const scanCount = async () => (await env.db.read.select({ n: count() }).from(scans))[0].n;

describe("GET /api/verify/:serial", () => {
  authCases(() => env, { method: "GET", path: () => "/api/verify/ABCDEFGH", scope: "access_control:view", otherClubStatus: 200 });

  it("an active member by pass serial: valid, with the member, and the scan stored", async () => {
    const tier = await addTier(env, { name: "Gold" });
    const m = await addMember(env, { first_name: "Léa", last_name: "Rossi", tier_id: tier.id });
    const res = await verify(m.pass_serial_number);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      status: "active",
      member: { id: m.id, first_name: "Léa", last_name: "Rossi", tier_name: "Gold", membership_end: m.membership_end },
      scanned_at: expect.any(String),
    });
    const scan = await lastScan();
    expect(scan).toMatchObject({ club_id: env.clubId, member_id: m.id, code: m.pass_serial_number, status: "active", admin_id: env.adminId });
    expect(scan.key_prefix).toBe(env.key.slice(0, 12));
    expect(scan.scanned_at).toBe(res.body.scanned_at);
  });

  it("a referral code matches in any letter case", async () => {
    const m = await addMember(env, { referral_code: "KX7RT4QP" });
    for (const code of ["KX7RT4QP", "kx7rt4qp", "Kx7Rt4qP"]) {
      const res = await verify(code);
      expect(res.body.status).toBe("active");
      expect(res.body.member.id).toBe(m.id);
      expect(res.body.member.tier_name).toBeNull();
      expect((await lastScan()).code).toBe(code);
    }
  });

  it("ignores spaces around the scanned code; the scan keeps the code as sent", async () => {
    const m = await addMember(env, { referral_code: "SP4CE5QR" });
    const res = await verify("  sp4ce5qr \t");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, status: "active", member: { id: m.id } });
    expect(await lastScan()).toMatchObject({ member_id: m.id, code: "  sp4ce5qr \t", status: "active" });
  });

  it("a pass-serial match wins over another member's referral-code match, whatever order the rows come in", async () => {
    // The referral-code member comes first in every order SQLite could read them in (inserted,
    // created and coded first), and without the serial's index the lookup reads them in such an
    // order: a lookup that took the first row found would answer the wrong member.
    const byReferral = await addMember(env, { first_name: "Referral", referral_code: "W1NSER1A", created_at: "2000-01-01T00:00:00.000Z" });
    const bySerial = await addMember(env, { first_name: "Serial", pass_serial_number: "W1NSER1A", referral_code: "ZZZZZZZZ" });
    await env.db.query("DROP INDEX members_pass_serial_unique");
    try {
      const res = await verify("W1NSER1A");
      expect(res.status).toBe(200);
      expect(res.body.member).toMatchObject({ id: bySerial.id, first_name: "Serial" });
      expect((await lastScan()).member_id).toBe(bySerial.id);
      expect(byReferral.id).not.toBe(bySerial.id);
    } finally {
      await env.db.query("CREATE UNIQUE INDEX members_pass_serial_unique ON members (pass_serial_number)");
    }
  });

  it("an expired member: not valid, status expired, scan stored", async () => {
    const m = await addMember(env, { membership_end: dayOffset(-1) });
    const res = await verify(m.referral_code);
    expect(res.body).toMatchObject({ valid: false, status: "expired", member: { id: m.id } });
    expect(await lastScan()).toMatchObject({ member_id: m.id, status: "expired" });
  });

  it("a member whose end is today is still active", async () => {
    const m = await addMember(env, { membership_end: dayOffset(0) });
    const res = await verify(m.referral_code);
    expect(res.body).toMatchObject({ valid: true, status: "active" });
  });

  it("a suspended member: not valid, status suspended, scan stored", async () => {
    const m = await addMember(env, { payment_status: "suspended", status_before_suspension: "paid" });
    const res = await verify(m.pass_serial_number);
    expect(res.body).toMatchObject({ valid: false, status: "suspended", member: { id: m.id } });
    expect(await lastScan()).toMatchObject({ member_id: m.id, status: "suspended" });
  });

  it("a pending member: not valid, status pending, scan stored", async () => {
    const m = await addMember(env, { payment_status: "pending" });
    const res = await verify(m.pass_serial_number);
    expect(res.body).toMatchObject({ valid: false, status: "pending", member: { id: m.id } });
    expect(await lastScan()).toMatchObject({ member_id: m.id, status: "pending" });
  });

  it("an unknown code: unknown, member null, and the scan is stored all the same", async () => {
    const before = await scanCount();
    const res = await verify("NOPE-1234");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: false, status: "unknown", member: null, scanned_at: expect.any(String) });
    expect(await scanCount()).toBe(before + 1);
    expect(await lastScan()).toMatchObject({ club_id: env.clubId, member_id: null, code: "NOPE-1234", status: "unknown" });
  });

  it("another club's member's codes answer unknown, and the scan is stored in the caller's club only", async () => {
    const other = await env.otherClub();
    const m = await addMember(env, { club_id: other.club_id, referral_code: "QQ7RT4QP" });
    for (const code of [m.pass_serial_number, m.referral_code]) {
      const res = await verify(code);
      expect(res.body).toEqual({ valid: false, status: "unknown", member: null, scanned_at: expect.any(String) });
      expect(await lastScan()).toMatchObject({ club_id: env.clubId, member_id: null, status: "unknown" });
    }
    // ...and the other club's own key sees its member.
    const own = await verify(m.referral_code, other.api_key);
    expect(own.body).toMatchObject({ valid: true, member: { id: m.id } });
    expect(await lastScan()).toMatchObject({ club_id: other.club_id, member_id: m.id });
  });

  it("a scan commits with its request's audit row: no more transactions than GET /api/auth/me, both rows there when it answers", async () => {
    const m = await addMember(env, {});
    const tx = env.db.tx;
    const transactionsOf = async (path: string) => {
      let n = 0;
      env.db.tx = ((fn, options) => {
        n++;
        return tx(fn, options);
      }) as typeof tx;
      try {
        expect((await env.call("GET", path)).status).toBe(200);
      } finally {
        env.db.tx = tx;
      }
      return n;
    };
    // auth/me: the audit row's (and, on PostgreSQL, the rate count's); a verification adds none.
    expect(await transactionsOf(`/api/verify/${m.pass_serial_number}`)).toBe(await transactionsOf("/api/auth/me"));
    expect(await lastScan()).toMatchObject({ member_id: m.id, status: "active" });
    const rows = await env.db.read.select().from(auditLog).orderBy(desc(auditLog.created_at), desc(auditLog.id)).limit(2);
    expect(rows.map((r) => r.path)).toContain(`/api/verify/${m.pass_serial_number}`);
  });

  it("a serial over 100 characters is a 422 and stores nothing", async () => {
    const before = await scanCount();
    const res = await verify("A".repeat(101));
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["path", "serial"]);
    expect(await scanCount()).toBe(before);
  });

  it("a key without access_control stores no scan", async () => {
    const before = await scanCount();
    const res = await verify("ANY", await env.makeKey({ members: "edit" }));
    expect(res.status).toBe(403);
    expect(await scanCount()).toBe(before);
  });

  it("is documented as a stable route with the CardVerification shape", async () => {
    const spec = (await env.call("GET", "/api/public/openapi.json", { key: null })).body;
    const op = spec.paths["/api/verify/{serial}"].get;
    expect(op["x-stable"]).toBe(true);
    expect(op.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/CardVerification");
  });
});
