// A member confirming a change of address on their page while an admin changes the same member's
// email at the same moment never deadlocks: both take their locks in one order (the club's email
// lock, then the member's row, then the email's own), the import's order (the club, then the
// rows). On PostgreSQL, where they run side by side, a transaction that lost a deadlock is run
// again by db.tx after PostgreSQL's deadlock_timeout; counted here, there must be none.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { members } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx, PublicCtx } from "../../lib/context";
import { sha256Hex } from "../../lib/ids";
import { confirmEmailChange } from "../../lib/member-page";
import { updateMember } from "../../lib/members";
import { setup, type TestEnv } from "../helpers";
import { memberRow, pageTokenOf, seedMember } from "../members-fixtures";

let env: TestEnv;
let deadlocks = 0;
let admin: Ctx;
let visitor: PublicCtx;

const lostDeadlock = (err: unknown) => [err as { code?: string }, (err as { cause?: { code?: string } }).cause].some((e) => e?.code === "40P01");

/**
 * The database as the verbs use it, counting the deadlocks its transactions lose (db.tx then runs
 * them again). `slowLocks`: each lock taken (a statement run by `execute`: lockRows, lockName) is
 * held a moment before the next statement, so another transaction gets in between, as it would
 * on a loaded server.
 */
function counting(slowLocks: boolean): Db {
  return {
    ...env.db,
    tx: (fn, options) =>
      env.db.tx(async (t) => {
        const seen = slowLocks
          ? new Proxy(t, {
              get(target, prop, receiver) {
                const value = Reflect.get(target, prop, receiver);
                if (prop !== "execute" || typeof value !== "function") return value;
                return async (...args: unknown[]) => {
                  const answer = await value.apply(target, args);
                  await Bun.sleep(50);
                  return answer;
                };
              },
            })
          : t;
        try {
          return await fn(seen);
        } catch (err) {
          if (lostDeadlock(err)) deadlocks++;
          throw err;
        }
      }, options),
  };
}

beforeAll(async () => {
  env = await setup();
  admin = { ...(await operatorCtx(env.db, env.clubId, env.config)), db: counting(false) };
  visitor = { db: counting(true), baseUrl: env.config.baseUrl, wallets: env.config.wallets, ip: null, locale: "en", formProofBits: 0 };
});
afterAll(() => env.close());

describe("an email change on the member's page beside an admin's", () => {
  it("runs one after the other, without a deadlock, and the member ends with the new address", async () => {
    const code = "c".repeat(32);
    const pairs = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const m = await seedMember(env, { email: `old-${i}@test.org` });
        const email = `new-${i}-${crypto.randomUUID().slice(0, 8)}@test.org`;
        await env.db.tx((t) =>
          t
            .update(members)
            .set({ pending_email: email, pending_email_code_hash: sha256Hex(code), pending_email_expires_at: new Date(Date.now() + 3_600_000).toISOString() })
            .where(eq(members.id, m.id)),
        );
        return { m, email };
      }),
    );
    // The admin's change starts while the member's holds its first locks.
    const done = await Promise.allSettled(
      pairs.flatMap(({ m, email }) => [
        confirmEmailChange(visitor, pageTokenOf(m), { code }),
        Bun.sleep(75).then(() => updateMember(admin, { member_id: m.id, email })),
      ]),
    );
    expect(done.filter((d) => d.status === "rejected").map((d) => String((d as PromiseRejectedResult).reason))).toEqual([]);
    expect(deadlocks).toBe(0);
    for (const { m, email } of pairs) expect((await memberRow(env, m.id)).email).toBe(email);
  });
});
