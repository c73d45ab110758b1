// importMembers' optional progress callback (used by the CLI's progress bar): counts only grow,
// end at the file's line count, follow the batches written, and the result is the same with or without it.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { importMembers } from "../../lib/members/import";
import { progressBar } from "../../scripts/cli/progress";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let ctx: Ctx;
beforeAll(async () => {
  env = await setup();
  ctx = await operatorCtx(env.db, env.clubId, env.config);
});
afterAll(() => env.close());

const csv = (from: number, n: number, extra = "") =>
  `first name,last name,email,membership end\n${Array.from({ length: n }, (_, i) => `Anna,Nom${from + i},m${from + i}@test.org,2030-12-31`).join("\n")}\n${extra}`;

function recorder() {
  const calls: [number, number][] = [];
  return { calls, onProgress: (done: number, total: number) => calls.push([done, total]) };
}

const memberCount = async () => (await env.db.read.select({ id: members.id }).from(members).where(eq(members.club_id, env.clubId))).length;

describe("importMembers onProgress", () => {
  it("counts the lines up to the total as their batches are written, only ever growing", async () => {
    const { calls, onProgress } = recorder();
    const result = await importMembers(ctx, { csv: csv(0, 1200), onProgress });
    expect(result).toMatchObject({ created: 1200, updated: 0, skipped: 0, errors: [], written: true });
    // 1,200 members (the newline after the last one starts no line), told per transaction: each
    // takes batches of 50 lines for as long as its slice of the writer lasts.
    expect(calls[0]).toEqual([0, 1200]);
    expect(calls.at(-1)).toEqual([1200, 1200]);
    for (let i = 1; i < calls.length; i++) {
      expect(calls[i][0]).toBeGreaterThan(calls[i - 1][0]);
      expect(calls[i][0] % 50 === 0 || calls[i][0] === 1200).toBe(true);
      expect(calls[i][1]).toBe(1200);
    }
    expect(await memberCount()).toBe(1200);
  });

  it("reports the whole file at once when nothing is written (dry run, or an error without partial)", async () => {
    const dry = recorder();
    const r1 = await importMembers(ctx, { csv: csv(5000, 50), dry_run: true, onProgress: dry.onProgress });
    expect(r1).toMatchObject({ created: 50, written: false });
    expect(dry.calls).toEqual([[50, 50]]);

    const refused = recorder();
    const r2 = await importMembers(ctx, { csv: csv(6000, 10, "Bad,Line,not-an-email,2030-12-31\n"), onProgress: refused.onProgress });
    expect(r2.errors).toHaveLength(1);
    expect(r2.written).toBe(false);
    expect(refused.calls).toEqual([[11, 11]]);
    expect(await memberCount()).toBe(1200);
  });

  it("gives the same result with or without a callback (updates and skips included)", async () => {
    const file = `${csv(0, 5).replace("Nom0,", "Renamed0,")}`;
    const quiet = await importMembers(ctx, { csv: file, mode: "update", dry_run: true });
    const { calls, onProgress } = recorder();
    const told = await importMembers(ctx, { csv: file, mode: "update", dry_run: true, onProgress });
    expect(told).toEqual(quiet);
    expect(told).toMatchObject({ created: 0, updated: 1, skipped: 4 });
    expect(calls).toEqual([[5, 5]]);
  });
});

describe("progressBar (scripts/cli/progress.ts)", () => {
  it("draws in place on a terminal, up to 100%, then ends the line", () => {
    const out: string[] = [];
    const bar = progressBar("import", "lines", { isTTY: true, write: (s) => out.push(s), minTotal: 10 });
    for (let i = 0; i <= 1000; i++) bar.update(i, 1000);
    bar.finish();
    expect(out.length).toBeGreaterThan(1);
    expect(out.slice(0, -1).every((s) => s.startsWith("\r"))).toBe(true);
    expect(out.at(-2)).toContain("100%");
    expect(out.at(-2)).toContain("1,000/1,000 lines");
    expect(out.at(-1)).toBe("\n");
  });

  it("draws nothing when not on a terminal, or for a small file", () => {
    const out: string[] = [];
    const piped = progressBar("import", "lines", { isTTY: false, write: (s) => out.push(s) });
    piped.update(500, 1000);
    piped.update(1000, 1000);
    piped.finish();
    const small = progressBar("import", "lines", { isTTY: true, write: (s) => out.push(s), minTotal: 500 });
    small.update(10, 10);
    small.finish();
    expect(out).toEqual([]);
  });
});
