// Members added to one club from two connections at once (PostgreSQL, where writers run side by
// side): a writer of one email waits for nobody but a writer of the same email, and the club's
// members version (lib/members/kept.ts) still counts every write, however many write at once.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import pg from "pg";
import type { Queryable } from "../../db";
import { members } from "../../db/schema";
import { assertEmailFree, newMemberCode, newMemberRow } from "../../lib/members";
import { codeSource, freeReferralCode } from "../../lib/members/internal";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const version = async () =>
  Number((await env.db.query<{ v: number }>("select coalesce(sum(version), 0) as v from member_versions where club_id = $1", [env.clubId]))[0].v);

/**
 * The two ways a writer checks a new member's email and draws its code: newMemberCode (adding a
 * member: the locks in one statement, both checks in one select) and the functions one by one.
 */
const ways = {
  newMemberCode: (t: Queryable, email: string) => newMemberCode(env.db, t, env.clubId, email),
  "assertEmailFree, then freeReferralCode": async (t: Queryable, email: string) => {
    await assertEmailFree(env.db, t, env.clubId, email);
    return freeReferralCode(t, env.clubId);
  },
};

for (const [n, [way, codeFor]] of Object.entries(ways).entries())
  describe(way, () => {
    const add = async (t: Queryable, email: string) => {
      const referral_code = await codeFor(t, email);
      const row = newMemberRow(env.clubId, {
        first_name: "Ada",
        last_name: "Writer",
        email,
        referral_code,
        membership_start: "2026-01-01",
        membership_end: "2026-12-31",
        payment_status: "paid",
      });
      return (await t.insert(members).values(row).returning({ code: members.referral_code }))[0].code;
    };
    it.skipIf(!onPostgres)(
      "two members of other emails added at once: the second commits while the first is still open, and the version counts both",
      async () => {
        const before = await version();
        let added!: () => void;
        let finish!: () => void;
        const inserted = new Promise<void>((r) => (added = r));
        const held = new Promise<void>((r) => (finish = r));
        const first = env.db.tx(async (t) => {
          await add(t, `first@${n}.writers.example`);
          added();
          await held;
        });
        await inserted;
        const second = await Promise.race([
          env.db.tx((t) => add(t, `second@${n}.writers.example`)).then(() => "committed"),
          Bun.sleep(3_000).then(() => "waited"),
        ]);
        finish();
        await first;
        expect(second).toBe("committed");
        expect(await version()).toBe(before + 2);
      },
    );

    it.skipIf(!onPostgres)("the same email added at once from two connections: the second waits for the first, then finds it taken", async () => {
      let added!: () => void;
      let finish!: () => void;
      const inserted = new Promise<void>((r) => (added = r));
      const held = new Promise<void>((r) => (finish = r));
      const first = env.db.tx(async (t) => {
        await add(t, `same@${n}.writers.example`);
        added();
        await held;
      });
      await inserted;
      const second = env.db
        .tx((t) => add(t, `same@${n}.writers.example`))
        .then(
          () => "added",
          (err: { code?: string }) => err.code ?? String(err),
        );
      expect(await Promise.race([second, Bun.sleep(500).then(() => "waiting")])).toBe("waiting");
      finish();
      await first;
      expect(await second).toBe("MEMBER_EMAIL_TAKEN");
    });

    it.skipIf(!onPostgres)("two members added at once who draw the same referral code: the second draws again, both are added", async () => {
      const draw = codeSource.referral;
      const draws = [`SAMEC0D${n}`, `SAMEC0D${n}`, `OTHERC0${n}`];
      codeSource.referral = () => draws.shift() ?? draw();
      try {
        let added!: () => void;
        let finish!: () => void;
        const inserted = new Promise<void>((r) => (added = r));
        const held = new Promise<void>((r) => (finish = r));
        const first = env.db.tx(async (t) => {
          const code = await add(t, `code-one@${n}.writers.example`);
          added();
          await held;
          return code;
        });
        await inserted;
        const second = env.db.tx((t) => add(t, `code-two@${n}.writers.example`));
        await Bun.sleep(300);
        finish();
        expect([await first, await second]).toEqual([`SAMEC0D${n}`, `OTHERC0${n}`]);
      } finally {
        codeSource.referral = draw;
      }
    });
  });

it.skipIf(!onPostgres)(
  "40 writers of one club at once, more than the 32 stripes, each writing 3 times, twice over: none waits for another's commit, and the version counts each write",
  async () => {
    const before = await version();
    // Each connection holds its transaction open after raising the version, as a member's insert
    // does through its trigger until the commit; a writer that had to wait for a stripe another
    // holds would hit the lock timeout. The second time the stripes the first one added exist.
    const clients = Array.from({ length: 40 }, () => new pg.Client({ connectionString: env.config.databaseUrl }));
    try {
      await Promise.all(clients.map((c) => c.connect()));
      for (let round = 0; round < 2; round++) {
        const raised = await Promise.all(
          clients.map(async (c) => {
            await c.query("BEGIN");
            await c.query("SET LOCAL lock_timeout = '2s'");
            try {
              for (let write = 0; write < 3; write++) await c.query("SELECT bump_member_version($1)", [env.clubId]);
              return "raised";
            } catch (err) {
              return (err as { code?: string }).code ?? String(err);
            }
          }),
        );
        expect(raised.filter((r) => r !== "raised")).toEqual([]);
        await Promise.all(clients.map((c) => c.query("COMMIT")));
      }
    } finally {
      await Promise.all(clients.map((c) => c.end().catch(() => {})));
    }
    expect(await version()).toBe(before + 240);
  },
);
