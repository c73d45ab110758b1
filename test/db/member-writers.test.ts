// Members added to one club from two connections at once (PostgreSQL, where writers run side by
// side): a writer of one email waits for nobody but a writer of the same email, and the club's
// members version (lib/members/kept.ts) still counts every write.
import { afterAll, beforeAll, expect, it } from "bun:test";
import type { Queryable } from "../../db";
import { members } from "../../db/schema";
import { assertEmailFree, newMemberRow } from "../../lib/members";
import { codeSource, freeReferralCode } from "../../lib/members/internal";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const add = async (t: Queryable, email: string) => {
  await assertEmailFree(t, env.clubId, email);
  const referral_code = await freeReferralCode(t, env.clubId);
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
const version = async () =>
  Number((await env.db.query<{ v: number }>("select coalesce(sum(version), 0) as v from member_versions where club_id = $1", [env.clubId]))[0].v);

it.skipIf(!onPostgres)("two members of other emails added at once: the second commits while the first is still open, and the version counts both", async () => {
  const before = await version();
  let added!: () => void;
  let finish!: () => void;
  const inserted = new Promise<void>((r) => (added = r));
  const held = new Promise<void>((r) => (finish = r));
  const first = env.db.tx(async (t) => {
    await add(t, "first@writers.example");
    added();
    await held;
  });
  await inserted;
  const second = await Promise.race([env.db.tx((t) => add(t, "second@writers.example")).then(() => "committed"), Bun.sleep(3_000).then(() => "waited")]);
  finish();
  await first;
  expect(second).toBe("committed");
  expect(await version()).toBe(before + 2);
});

it.skipIf(!onPostgres)("the same email added at once from two connections: the second waits for the first, then finds it taken", async () => {
  let added!: () => void;
  let finish!: () => void;
  const inserted = new Promise<void>((r) => (added = r));
  const held = new Promise<void>((r) => (finish = r));
  const first = env.db.tx(async (t) => {
    await add(t, "same@writers.example");
    added();
    await held;
  });
  await inserted;
  const second = env.db
    .tx((t) => add(t, "same@writers.example"))
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
  const draws = ["SAMEC0DE", "SAMEC0DE", "OTHERC0D"];
  codeSource.referral = () => draws.shift() ?? draw();
  try {
    let added!: () => void;
    let finish!: () => void;
    const inserted = new Promise<void>((r) => (added = r));
    const held = new Promise<void>((r) => (finish = r));
    const first = env.db.tx(async (t) => {
      const code = await add(t, "code-one@writers.example");
      added();
      await held;
      return code;
    });
    await inserted;
    const second = env.db.tx((t) => add(t, "code-two@writers.example"));
    await Bun.sleep(300);
    finish();
    expect([await first, await second]).toEqual(["SAMEC0DE", "OTHERC0D"]);
  } finally {
    codeSource.referral = draw;
  }
});
