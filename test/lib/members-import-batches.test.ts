// How many rows an import's statements write at a time (issue 31): batches of 200 lines while
// nobody else waits, 50 while others do, and only statements of a few fixed sizes, since each
// size is a statement kept for the process's life (Db.prepareRows).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "bun:test";
import { and, eq, like } from "drizzle-orm";
import type { Db } from "../../db";
import { members } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { inPieces } from "../../db";
import { importMembers, PIECES } from "../../lib/members/import";
import { whenOthersWait } from "../../lib/members/import-journal";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let ctx: Ctx;
/** The row counts of the import's member inserts, updates and history inserts, as prepared and run. */
let sizes: { insert: number[]; update: number[]; history: number[] };
let original: Db["prepareRows"];
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000" });
  ctx = await operatorCtx(env.db, env.clubId, env.config);
  original = env.db.prepareRows;
  env.db.prepareRows = ((name: string, rows: number, width: number, build: never) => {
    const m = /^members\.import\.(insert|update|history)\b/.exec(name);
    const prepared = original.call(env.db, name, rows, width, build);
    return (t: never) => {
      if (m) sizes[m[1] as keyof typeof sizes].push(rows);
      return prepared(t);
    };
  }) as Db["prepareRows"];
});
afterEach(() => whenOthersWait(null));
afterAll(() => {
  env.db.prepareRows = original;
  env.close();
});

const line = (tag: string, i: number, last = "Nom") => `Anna,${last}${i},${tag}-${i}@test.org,2030-12-31`;
const csv = (lines: string[]) => `first name,last name,email,membership end\n${lines.join("\n")}\n`;
const count = async (pattern: string) =>
  (
    await env.db.read
      .select({ id: members.id })
      .from(members)
      .where(and(eq(members.club_id, env.clubId), like(members.email, pattern)))
  ).length;
const fresh = () => {
  sizes = { insert: [], update: [], history: [] };
};

describe("an import's statements", () => {
  it("write 200 members at a time while nobody else waits", async () => {
    fresh();
    const r = await importMembers(ctx, { csv: csv(Array.from({ length: 450 }, (_, i) => line("lone", i))) });
    expect(r.created).toBe(450);
    // 200, 200, then the file's last 50.
    expect(sizes.insert).toEqual([200, 200, 50]);
    expect(sizes.history).toEqual([200, 200, 50]);
    expect(await count("lone-%")).toBe(450);
  });

  it("write 50 at a time while others wait", async () => {
    whenOthersWait(() => true);
    fresh();
    const r = await importMembers(ctx, { csv: csv(Array.from({ length: 230 }, (_, i) => line("shared", i))) });
    expect(r.created).toBe(230);
    // 50 four times, then 30 as 16 + 8 + 4 + 2.
    expect(sizes.insert).toEqual([50, 50, 50, 50, 16, 8, 4, 2]);
    expect(await count("shared-%")).toBe(230);
  });

  it("come in a few fixed sizes when a file mixes new and known members", async () => {
    // Known members spread unevenly: each batch of 200 splits into counts of every kind.
    const known = Array.from({ length: 300 }, (_, i) => line("mixed", i));
    await importMembers(ctx, { csv: csv(known) });
    fresh();
    const lines = Array.from({ length: 600 }, (_, i) => line("mixed", i, i % 7 === 0 || i % 11 === 0 || i >= 300 ? "Autre" : "Nom"));
    const r = await importMembers(ctx, { csv: csv(lines), mode: "update" });
    expect(r.errors).toEqual([]);
    // Lines 300-599 are new; of 0-299 those i % 7 or i % 11 renamed, the rest unchanged.
    const renamed = Array.from({ length: 300 }, (_, i) => i).filter((i) => i % 7 === 0 || i % 11 === 0).length;
    expect(r.created).toBe(300);
    expect(r.updated).toBe(renamed);
    const allowed = new Set([200, 50, 32, 16, 8, 4, 2, 1]);
    for (const kind of ["insert", "update", "history"] as const) for (const n of sizes[kind]) expect(allowed.has(n)).toBe(true);
    expect(sizes.insert.reduce((a, b) => a + b, 0)).toBe(300);
    expect(sizes.update.reduce((a, b) => a + b, 0)).toBe(renamed);
    expect(sizes.history.reduce((a, b) => a + b, 0)).toBe(300 + renamed);
    expect(await count("mixed-%")).toBe(600);
  });

  it("cut rows into pieces of those sizes, the largest first, each row once and in order", () => {
    for (const n of [0, 1, 3, 49, 50, 51, 137, 199, 200, 201, 450]) {
      const rows = Array.from({ length: n }, (_, i) => i);
      const pieces = inPieces(rows, PIECES);
      expect(pieces.flat()).toEqual(rows);
      const lengths = pieces.map((p) => p.length);
      expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
    }
    expect(
      inPieces(
        Array.from({ length: 199 }, (_, i) => i),
        PIECES,
      ).map((p) => p.length),
    ).toEqual([50, 50, 50, 32, 16, 1]);
  });
});
