// Property tests of the member verbs of lib/members (issue 6, item 1, fast-check): random
// sequences of extend / mark-paid / suspend / reactivate / cancel-subscription on a member in a
// random starting state. Each answer is a success or the documented refusal (409, 422); the state
// stored after each step is one DESIGN.md section 6 allows and the one it predicts; and the
// member's history tells the same story: one row per successful transition, each row starting
// where the previous one ended.

import { afterAll, beforeAll, expect, it } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { memberHistory, members, payments } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { cancelSubscription, extendMembership, markMemberPaid, reactivateMember, suspendMember } from "../../lib/members";
import { addDays, addMonths, getMemberRow, type MemberRow, periodEnd } from "../../lib/members/internal";
import { derivedStatus, todayUtc } from "../../lib/members/status";
import { insertMember } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const STORED = ["pending", "paid", "suspended"];

let env: TestEnv;
let ctx: Ctx;
beforeAll(async () => {
  env = await setup();
  ctx = await operatorCtx(env.db, env.clubId, env.config);
});
afterAll(() => env.close());

type Step =
  | { verb: "extend"; until?: number; months?: number }
  | { verb: "mark-paid"; amount: number }
  | { verb: "suspend" }
  | { verb: "reactivate" }
  | { verb: "cancel-subscription" };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    verb: fc.constant("extend" as const),
    until: fc.option(fc.integer({ min: -60, max: 400 }), { nil: undefined }),
    months: fc.option(fc.integer({ min: 1, max: 24 }), { nil: undefined }),
  }),
  fc.record({ verb: fc.constant("mark-paid" as const), amount: fc.integer({ min: 0, max: 100_000 }) }),
  fc.constant({ verb: "suspend" as const }),
  fc.constant({ verb: "reactivate" as const }),
  fc.constant({ verb: "cancel-subscription" as const }),
);

const start = fc.record({
  status: fc.constantFrom("pending", "paid", "suspended"),
  before: fc.constantFrom("pending", "paid"),
  endOffset: fc.integer({ min: -400, max: 400 }),
  subscription: fc.boolean(),
});

/** What DESIGN.md section 6 says happens: the refusal status, or the fields that change. */
function predict(m: MemberRow, s: Step, today: string, months: number): { refuse: number } | { set: Partial<MemberRow> } {
  switch (s.verb) {
    case "extend": {
      if (s.until !== undefined && s.months !== undefined) return { refuse: 422 };
      if (s.until !== undefined) {
        const until = addDays(m.membership_end, s.until);
        return until <= m.membership_end ? { refuse: 422 } : { set: { membership_end: until } };
      }
      const n = s.months ?? months;
      return { set: { membership_end: m.membership_end < today ? periodEnd(today, n) : addMonths(m.membership_end, n) } };
    }
    case "mark-paid":
      if (m.payment_status === "suspended") return { refuse: 409 };
      return derivedStatus(m, today) === "active"
        ? { set: { membership_end: addMonths(m.membership_end, months) } }
        : { set: { payment_status: "paid", membership_start: today, membership_end: periodEnd(today, months) } };
    case "suspend":
      return m.payment_status === "suspended" ? { refuse: 409 } : { set: { payment_status: "suspended", status_before_suspension: m.payment_status } };
    case "reactivate":
      return m.payment_status !== "suspended"
        ? { refuse: 409 }
        : { set: { payment_status: m.status_before_suspension ?? "paid", status_before_suspension: null } };
    case "cancel-subscription":
      return m.payment_mode !== "subscription" || m.renewal_opt_out_at ? { refuse: 409 } : { set: {} };
  }
}

function run(memberId: string, m: MemberRow, s: Step) {
  const input = { member_id: memberId, reason: `property ${s.verb}` };
  switch (s.verb) {
    case "extend":
      return extendMembership(ctx, { ...input, extend_until: s.until === undefined ? undefined : addDays(m.membership_end, s.until), extend_months: s.months });
    case "mark-paid":
      return markMemberPaid(ctx, { ...input, amount_cents: s.amount, payment_method: "cash" });
    case "suspend":
      return suspendMember(ctx, input);
    case "reactivate":
      return reactivateMember(ctx, input);
    case "cancel-subscription":
      return cancelSubscription(ctx, input);
  }
}

it(`${RUNS} random sequences of member transitions keep DESIGN.md section 6's states, answers and history`, async () => {
  const months = 12; // the club's membership_duration_months; the member has no tier
  await fc.assert(
    fc.asyncProperty(start, fc.array(step, { minLength: 1, maxLength: 25 }), async (init, steps) => {
      const today = todayUtc();
      const row = await insertMember(env, {
        paymentStatus: init.status,
        end: addDays(today, init.endOffset),
        start: addDays(today, Math.min(init.endOffset, 0) - 30),
      });
      await env.db.tx((t) =>
        t
          .update(members)
          .set({ payment_mode: init.subscription ? "subscription" : "one_time", status_before_suspension: init.status === "suspended" ? init.before : null })
          .where(eq(members.id, row.id)),
      );
      let m = await getMemberRow(env.db.read, env.clubId, row.id);
      const done: string[] = [];
      let paid = 0;
      for (const s of steps) {
        const want = predict(m, s, today, months);
        let got: number | "ok";
        try {
          await run(row.id, m, s);
          got = "ok";
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          got = err.status;
        }
        const after = await getMemberRow(env.db.read, env.clubId, row.id);
        if ("refuse" in want) {
          expect({ step: s, got }).toEqual({ step: s, got: want.refuse });
          expect(after).toEqual(m);
        } else {
          expect({ step: s, got }).toEqual({ step: s, got: "ok" });
          for (const [k, v] of Object.entries(want.set)) expect({ step: s, [k]: after[k as keyof MemberRow] }).toEqual({ step: s, [k]: v });
          if (s.verb === "cancel-subscription") expect(after.renewal_opt_out_at).not.toBeNull();
          done.push(s.verb.replace("-", "_"));
          if (s.verb === "mark-paid") paid++;
        }
        // Only states DESIGN.md section 6 knows.
        expect(STORED).toContain(after.payment_status);
        expect(after.status_before_suspension === null).toBe(after.payment_status !== "suspended");
        if (after.status_before_suspension !== null) expect(["pending", "paid"]).toContain(after.status_before_suspension);
        expect(after.membership_end).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        m = after;
      }
      // The history: one row per success, in order, each starting where the previous ended.
      // In insertion order (rowid), whatever the ids.
      const history = await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, row.id)).orderBy(asc(sql`rowid`));
      expect(history.map((h) => h.action)).toEqual(done);
      let status: string = init.status;
      let end = row.membership_end;
      for (const h of history) {
        expect([h.from_status, h.from_end]).toEqual([status, end]);
        status = h.to_status as string;
        end = h.to_end as string;
      }
      expect([status, end]).toEqual([m.payment_status, m.membership_end]);
      const paidRows = await env.db.read.select().from(payments).where(eq(payments.member_id, row.id));
      expect(paidRows.length).toBe(paid);
    }),
    { numRuns: RUNS, seed: Number(process.env.PROPERTY_SEED ?? 6), endOnFailure: true },
  );
}, 300_000);
