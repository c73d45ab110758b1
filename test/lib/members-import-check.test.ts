// What the check pass of a member import decides before anything is written (issue 31, upd21):
// the lines whose fate the club's members decide (a new email without every field, an update's one
// date that the stored other completes) are looked up as the check meets them, the email and the
// period alone, on the read connection; every line planned against full rows only for a dry run or
// a file already refused. The dates of a line, checked against the calendar.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { and, eq, like } from "drizzle-orm";
import type { Db } from "../../db";
import { members } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { importMembers } from "../../lib/members/import";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let ctx: Ctx;
/** The names of the statements the import prepared on the read connection (Db.prepareRead), without their size. */
let reads: string[];
let original: Db["prepareRead"];
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000" });
  ctx = await operatorCtx(env.db, env.clubId, env.config);
  original = env.db.prepareRead;
  env.db.prepareRead = ((name: string, build: never) => {
    if (name.startsWith("members.import.")) reads.push(name.replace(/:\d+$/, ""));
    return original.call(env.db, name, build);
  }) as Db["prepareRead"];
});
beforeEach(() => {
  reads = [];
});
afterAll(() => {
  env.db.prepareRead = original;
  env.close();
});

const csv = (lines: string[]) => `first name,last name,email,membership start,membership end\n${lines.join("\n")}\n`;
const stored = async (tag: string) =>
  (
    await env.db.read
      .select({ email: members.email, last_name: members.last_name, start: members.membership_start, end: members.membership_end })
      .from(members)
      .where(and(eq(members.club_id, env.clubId), like(members.email, `${tag}-%`)))
  ).sort((a, b) => a.email.localeCompare(b.email, "en", { numeric: true }));

/** `n` members of `tag`, each from 2029-01-01 to 2029-12-31. */
async function seed(tag: string, n: number) {
  const r = await importMembers(ctx, { csv: csv(Array.from({ length: n }, (_, i) => `Anna,Nom,${tag}-${i}@test.org,2029-01-01,2029-12-31`)) });
  expect(r.created).toBe(n);
}

describe("an update file's lines that the club's members decide", () => {
  it("are looked up by their period alone during the check, and written once planned in the writing", async () => {
    await seed("period", 450);
    reads = [];
    // The end alone: the stored start completes the period (the line may yet be an error).
    const r = await importMembers(ctx, { csv: csv(Array.from({ length: 450 }, (_, i) => `,Neu${i},period-${i}@test.org,,2031-06-30`)), mode: "update" });
    expect(r.errors).toEqual([]);
    expect(r.updated).toBe(450);
    // 200, 200, 50 looked up by their period; no member's whole row read on the read connection
    // (a planning pass over the file read each member's every column before the writing).
    expect(reads).toEqual(["members.import.periodByEmail", "members.import.periodByEmail", "members.import.periodByEmail"]);
    const rows = await stored("period");
    expect(rows.map((m) => [m.last_name, m.start, m.end])).toEqual(Array.from({ length: 450 }, (_, i) => [`Neu${i}`, "2029-01-01", "2031-06-30"]));
  });

  it("make a file faulty before anything is written, wherever they are in it", async () => {
    await seed("late", 450);
    const lines = Array.from({ length: 450 }, (_, i) => `,Neu${i},late-${i}@test.org,,2030-06-30`);
    // Line 2 + 210 (the second lookup) and 2 + 440 (the last 50): an end before the stored start, an earlier end allowed.
    lines[210] = ",Neu210,late-210@test.org,,2028-06-30";
    lines[440] = ",Neu440,late-440@test.org,,2028-06-30";
    // A new email whose line lacks a new member's fields.
    lines[300] = ",,late-new@test.org,,2030-06-30";
    const r = await importMembers(ctx, { csv: csv(lines), mode: "update", allow_shorten: true });
    expect(r.errors.map((e) => e.line)).toEqual([212, 302, 442]);
    expect(r.errors[0].detail).toContain("2028-06-30");
    expect(r.errors[1].detail).toContain("late-new@test.org");
    expect(r.written).toBe(false);
    expect(r.updated).toBe(0);
    expect((await stored("late")).every((m) => m.last_name === "Nom" && m.end === "2029-12-31")).toBe(true);
  });

  it("in a partial import, are left out and the other lines written", async () => {
    await seed("part", 260);
    const lines = Array.from({ length: 260 }, (_, i) => `,Neu${i},part-${i}@test.org,,${i === 250 ? "2028-06-30" : "2030-06-30"}`);
    const r = await importMembers(ctx, { csv: csv(lines), mode: "update", allow_shorten: true, partial: true });
    expect(r.errors.map((e) => e.line)).toEqual([252]);
    expect(r.updated).toBe(259);
    const rows = await stored("part");
    expect(rows[250]).toMatchObject({ email: "part-250@test.org", last_name: "Nom", end: "2029-12-31" });
    expect(rows.filter((m) => m.last_name.startsWith("Neu") && m.end === "2030-06-30")).toHaveLength(259);
  });

  it("are planned on full rows for a dry run, which shows every change", async () => {
    await seed("dry", 3);
    reads = [];
    const r = await importMembers(ctx, { csv: csv(["Anna,Neu,dry-0@test.org,,2031-06-30"]), mode: "update", dry_run: true });
    expect(reads).toEqual(["members.import.byEmail"]);
    expect(r.changes?.[0].fields.map((f) => [f.field, f.from, f.to])).toEqual([
      ["last_name", "Nom", "Neu"],
      ["membership_end", "2029-12-31", "2031-06-30"],
    ]);
    expect((await stored("dry"))[0].last_name).toBe("Nom");
  });
});

describe("a line's dates", () => {
  it("are days of the calendar: leap years by the Gregorian rule, each month's length", async () => {
    const dates = ["29.02.2028", "29.02.2000", "2030-04-30", "31.12.2030", "29.02.2030", "29.02.2100", "31.04.2030", "00.01.2030", "1.13.2030", "2030-02-30"];
    const r = await importMembers(ctx, {
      csv: `first name,last name,email,membership end\n${dates.map((d, i) => `Anna,Nom,cal-${i}@test.org,${d}`).join("\n")}\n`,
      dry_run: true,
    });
    expect(r.errors.map((e) => e.line)).toEqual([6, 7, 8, 9, 10, 11]);
    expect(r.changes?.map((c) => c.fields.find((f) => f.field === "membership_end")?.to)).toEqual(["2028-02-29", "2000-02-29", "2030-04-30", "2030-12-31"]);
  });
});
