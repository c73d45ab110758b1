// POST /api/clubs/:club_id/members/import and the tier of imported members (issue 32): a tier
// column names each line's tier by name (accents and case ignored), `tier_id` is the default for
// the lines that name none (and, in update mode, for members without a tier); an unknown tier is
// a line error, an unknown or inactive default a 422 on `tier_id`, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq, like } from "drizzle-orm";
import { clubs, members } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import { importMembers } from "../../lib/members/import";
import { whenOthersWait } from "../../lib/members/import-journal";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";
import { addDays, addMonths, newManageToken } from "../../lib/members/internal";
import { todayUtc } from "../../lib/days";
import { importFile, seedMember } from "../members-fixtures";

let env: TestEnv;
let standard: string;
let student: string;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000" });
  const tier = async (body: Record<string, unknown>) => (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body })).body.id as string;
  standard = await tier({ name: "Standard", price_cents: 6000 });
  student = await tier({ name: "Étudiant  Réduit", price_cents: 3000 });
  await tier({ name: "Ancienne", price_cents: 1000, is_active: false });
});
afterAll(() => env.close());

const tierOf = async (email: string) => (await env.db.read.select({ tier_id: members.tier_id }).from(members).where(eq(members.email, email)))[0]?.tier_id;
const countLike = async (pattern: string) => (await env.db.read.select({ id: members.id }).from(members).where(like(members.email, pattern))).length;

describe("the tier column", () => {
  it("names the tier by name, accents, case and spaces ignored, under the headings people use", async () => {
    const res = await importFile(
      env,
      "prénom;nom;courriel;fin abonnement;Catégorie\nAnne;Roy;col-a@test.org;2031-06-30;standard\nBruno;Roy;col-b@test.org;2031-06-30;ETUDIANT réduit\nCléa;Roy;col-c@test.org;2031-06-30;\n",
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 3, errors: [], written: true });
    expect(res.body.file.columns.map((c: { field: string | null }) => c.field)).toEqual(["first_name", "last_name", "email", "membership_end", "tier"]);
    expect(await tierOf("col-a@test.org")).toBe(standard);
    expect(await tierOf("col-b@test.org")).toBe(student);
    expect(await tierOf("col-c@test.org")).toBeNull();
  });

  it("reports an unknown tier as a line error naming the club's active tiers; nothing written unless partial", async () => {
    const csv = "first_name,last_name,email,membership_end,tier\nAnn,Bad,unk-a@test.org,2031-06-30,Gold\nBen,Good,unk-b@test.org,2031-06-30,Standard\n";
    const res = await importFile(env, csv);
    expect(res.body).toMatchObject({ created: 0, written: false });
    expect(res.body.errors).toEqual([{ line: 2, detail: "Catégorie inconnue : « Gold » (catégories du club : « Standard », « Étudiant  Réduit »)." }]);
    expect(await countLike("unk-%")).toBe(0);
    // The inactive tier is not offered: naming it is an error too.
    const inactive = await importFile(env, "first_name,last_name,email,membership_end,tier\nOld,Tier,unk-c@test.org,2031-06-30,ancienne\n");
    expect(inactive.body.errors[0].detail).toContain("« ancienne »");
    const partial = await importFile(env, csv, "?partial=true");
    expect(partial.body).toMatchObject({ created: 1, written: true });
    expect(await tierOf("unk-b@test.org")).toBe(standard);
    expect(await countLike("unk-a%")).toBe(0);
  });

  it("leaves a column named like a custom field of the club to that field", async () => {
    const other = await env.otherClub();
    await env.db.tx((t) =>
      t
        .update(clubs)
        .set({ custom_fields_schema: [{ key: "categorie", label: "Catégorie" }] } as never)
        .where(eq(clubs.id, other.club_id)),
    );
    const res = await env.call("POST", `/api/clubs/${other.club_id}/members/import`, {
      key: other.api_key,
      rawBody: "first_name,last_name,email,membership_end,Catégorie\nAnn,Roy,custom-cat@test.org,2031-06-30,Junior\n",
      headers: { "content-type": "text/csv" },
    });
    expect(res.body).toMatchObject({ created: 1, errors: [] });
    expect(res.body.file.columns[4]).toEqual({ heading: "Catégorie", field: "custom_fields.categorie" });
    const [row] = await env.db.read.select().from(members).where(eq(members.email, "custom-cat@test.org"));
    expect(row).toMatchObject({ tier_id: null, custom_fields: { categorie: "Junior" } });
  });
});

describe("a new member's start when the file gives only the end", () => {
  it("is one period of the member's tier before the end (the line's tier, else the default), the club's without a tier", async () => {
    const semester = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Semestre", price_cents: 2000, duration_months: 6 } })).body
      .id as string;
    const [club] = await env.db.read.select({ months: clubs.membership_duration_months }).from(clubs).where(eq(clubs.id, env.clubId));
    expect(club.months).toBe(12);
    const end = addDays(todayUtc(), 60);
    const csv = `first_name,last_name,email,membership_end,tier\nAnn,Roy,start-line@test.org,${end},Semestre\nBen,Roy,start-default@test.org,${end},\nCid,Roy,start-club@test.org,${end},Standard\n`;
    // Standard's period is the club's (12 months); the default tier (Semestre) applies to the line without one.
    const res = await importFile(env, csv, `?tier_id=${semester}`);
    expect(res.body).toMatchObject({ created: 3, errors: [], written: true });
    const startOf = async (email: string) => (await env.db.read.select({ s: members.membership_start }).from(members).where(eq(members.email, email)))[0].s;
    expect(await startOf("start-line@test.org")).toBe(addDays(addMonths(end, -6), 1));
    expect(await startOf("start-default@test.org")).toBe(addDays(addMonths(end, -6), 1));
    expect(await startOf("start-club@test.org")).toBe(addDays(addMonths(end, -12), 1));
  });
});

describe("the default tier (tier_id)", () => {
  it("gives new members whose line names no tier the default; a line's own tier wins", async () => {
    const csv = "first_name,last_name,email,membership_end,tier\nAnn,Roy,def-a@test.org,2031-06-30,\nBen,Roy,def-b@test.org,2031-06-30,Étudiant Réduit\n";
    const res = await importFile(env, csv, `?tier_id=${standard}`);
    expect(res.body).toMatchObject({ created: 2, errors: [], written: true });
    expect(await tierOf("def-a@test.org")).toBe(standard);
    expect(await tierOf("def-b@test.org")).toBe(student);
  });

  it("shows the tier in the dry run's changes", async () => {
    const res = await importFile(env, "first_name,last_name,email,membership_end\nDry,Run,def-dry@test.org,2031-06-30\n", `?tier_id=${student}&dry_run=true`);
    expect(res.body.changes[0].fields).toContainEqual({ field: "tier_id", from: null, to: student });
    expect(await countLike("def-dry%")).toBe(0);
  });

  it("in update mode fills the tier of members without one and never replaces a tier they have", async () => {
    const none = await seedMember(env, { email: "upd-none@test.org" });
    const has = await seedMember(env, { email: "upd-has@test.org", tier_id: student });
    const res = await importFile(env, "email,tier\nupd-none@test.org,\nupd-has@test.org,\n", `?mode=update&tier_id=${standard}`);
    expect(res.body).toMatchObject({ updated: 1, skipped: 1, errors: [] });
    expect(await tierOf(none.email)).toBe(standard);
    expect(await tierOf(has.email)).toBe(student);
    // The column does replace it.
    await importFile(env, "email,tier\nupd-has@test.org,standard\n", "?mode=update");
    expect(await tierOf(has.email)).toBe(standard);
  });

  it("refuses with 422 on tier_id a tier of another club, an unknown one, an inactive one or a non-id; nothing written", async () => {
    const other = await env.otherClub();
    const foreign = (await env.call("POST", `/api/clubs/${other.club_id}/tiers`, { key: other.api_key, body: { name: "Standard", price_cents: 1 } })).body.id;
    const inactive = (await env.call("GET", `/api/clubs/${env.clubId}/tiers?include_inactive=true`)).body.find(
      (t: { name: string }) => t.name === "Ancienne",
    ).id;
    const csv = "first_name,last_name,email,membership_end\nAnn,Roy,refused@test.org,2031-06-30\n";
    for (const [id, detail] of [
      [foreign, `« ${foreign} » n'est pas une formule de ce club.`],
      [crypto.randomUUID(), "n'est pas une formule de ce club."],
      [inactive, "Cette formule n'est pas proposée."],
    ]) {
      const res = await importFile(env, csv, `?tier_id=${id}`);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ["query", "tier_id"], msg: expect.stringContaining(detail) })]);
    }
    const notAnId = await importFile(env, csv, "?tier_id=Standard");
    expect(notAnId.status).toBe(422);
    expect(notAnId.body.detail[0].loc).toEqual(["query", "tier_id"]);
    expect(await countLike("refused%")).toBe(0);
  });
});

// SQLite only, as the contention test's own undo case: the change made between two batches is a
// synchronous write on the writer (test/lib/members-import-contention.test.ts).
it.skipIf(onPostgres)("an import undone half-way gives the members their tier back", async () => {
  const ctx = await operatorCtx(env.db, env.clubId, env.config);
  await importMembers(ctx, {
    csv: `first name,last name,email,membership end\n${Array.from({ length: 2000 }, (_, i) => `Ann,N${i},undo-${i}@test.org,2030-12-31`).join("\n")}\n`,
  });
  // Every line gives the default tier to a member without one; the last line's start, only the database can refuse.
  const file = `email,membership start\n${Array.from({ length: 2000 }, (_, i) => `undo-${i}@test.org,${i === 1999 ? "2030-06-01" : ""}`).join("\n")}\n`;
  let changed = false;
  // As the server says while requests are in hand: short slices, so that several transactions make the import.
  whenOthersWait(() => true);
  const result = await importMembers(ctx, {
    csv: file,
    mode: "update",
    tier_id: standard,
    onProgress: (done) => {
      if (changed || done === 0 || done === 2000) return;
      changed = true;
      env.db.raw.run("UPDATE members SET membership_end = '2030-01-01' WHERE email = 'undo-1999@test.org'");
    },
  }).finally(() => whenOthersWait(null));
  expect(changed).toBe(true);
  expect(result).toMatchObject({ written: false, updated: 0 });
  const rows = await env.db.read.select({ tier_id: members.tier_id }).from(members).where(like(members.email, "undo-%"));
  expect(rows).toHaveLength(2000);
  expect(rows.every((r) => r.tier_id === null)).toBe(true);
});

it("last season's members imported with their tier are asked its price at renewal, not 'nothing to pay'", async () => {
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ payout_iban: "CH9300762011623852957", payout_bic: "POFICHBEXXX", payout_beneficiary_name: "Club de test" })
      .where(eq(clubs.id, env.clubId)),
  );
  // Ended last June: the renewal is due. The club's fee is 0.
  const header = "first_name,last_name,email,membership_end\n";
  await importFile(env, `${header}Ann,Season,season-tier@test.org,2026-06-30\n`, `?tier_id=${standard}`);
  await importFile(env, `${header}Ben,Season,season-none@test.org,2026-06-30\n`);
  const renew = async (email: string) => {
    // An imported member's page token is known to nobody (only its hash is kept) until a mail makes one: one here.
    const page = newManageToken();
    await env.db.tx((t) => t.update(members).set({ manage_token: page.hash }).where(eq(members.email, email)));
    const res = await env.app.handle(
      new Request(`http://localhost/api/public/manage/${page.token}/renew`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ payment_method: "bank_transfer" }),
      }),
    );
    return res.json();
  };
  expect(await renew("season-tier@test.org")).toMatchObject({ amount_cents: 6000, renewed: false });
  expect(await renew("season-none@test.org")).toMatchObject({ amount_cents: 0, renewed: true });
});
