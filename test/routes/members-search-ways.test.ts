// GET /api/clubs/:club_id/members?search=...: whichever way the list reads a search (issue 31), the
// answer is the one the rule gives: the members whose folded name, email or code holds the folded
// term, with the list's filter, sort and page. On a fixed club of 160 members, every answer is
// compared with that rule applied by hand to all the members (ids in order and total), on both
// engines; on SQLite also with each way forced (FTS5 index or the club's own indexes, for the
// count and for the page), which must all agree.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { Database } from "bun:sqlite";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import { membersPage, type SearchWays } from "../../lib/members";
import { foldText } from "../../lib/members/internal";
import type { MemberListQuery } from "../../lib/members/schemas";
import { isLargeAnswer } from "../../lib/reply";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";
import { addDays, seedMember, todayUtc } from "../members-fixtures";

const FIRST = ["Anna", "Élodie", "Łukasz", "Zoë", "Marco", "Jörg", "Chiara", "Luc"];
const LAST = ["Żółć", "Zolcer", "ZOLC", "Dupont", "Müller", "100%", "A_b", "Ab", "Favre", "Zolč", "O'Brien"];
const PAYMENT = ["paid", "paid", "pending", "suspended", "paid"];

type Member = { id: string; search_text: string; sort_name: string; created_at: string; email: string; membership_end: string; status: string };

let env: TestEnv;
/** Every member of the club as the list shows them, with what the rule reads. */
let all: Member[];
beforeAll(async () => {
  env = await setup();
  const today = todayUtc();
  for (let i = 0; i < 160; i++) {
    await seedMember(env, {
      first_name: FIRST[i % FIRST.length],
      last_name: LAST[(i * 3) % LAST.length],
      email: i % 4 ? `m${i}@test.org` : `m_${i}@test.org`,
      payment_status: PAYMENT[i % PAYMENT.length],
      membership_end: addDays(today, (i % 7) * 40 - 100),
      // Every fifth member registered at the same moment as the one before: the id breaks the tie.
      created_at: new Date(Date.UTC(2025, 0, 1) + (i - (i % 5 === 4 ? 1 : 0)) * 3_600_000).toISOString(),
    });
  }
  const listed = await env.call("GET", `/api/clubs/${env.clubId}/members?limit=1000`);
  const rows = await env.db.read
    .select({ id: members.id, search_text: members.search_text, sort_name: members.sort_name })
    .from(members)
    .where(eq(members.club_id, env.clubId));
  const keys = new Map(rows.map((r) => [r.id, r]));
  all = (listed.body.items as Member[]).map((m) => ({ ...m, ...(keys.get(m.id) as Member) }));
});
afterAll(() => env?.close());

const SORT_KEY: Record<string, (m: Member) => string> = {
  registered: (m) => m.created_at,
  name: (m) => m.sort_name,
  email: (m) => m.email,
  membership_end: (m) => m.membership_end,
  status: (m) => m.status,
};

/** The rule by hand: the answer's ids in order and its total. */
function expected(q: MemberListQuery): { total: number; ids: string[] } {
  const term = foldText((q.search ?? "").trim());
  const key = SORT_KEY[q.sort ?? "registered"];
  const sign = q.dir === "asc" ? 1 : -1;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const found = all
    .filter((m) => m.search_text.includes(term) && (!q.status || q.status === "all" || m.status === q.status))
    .sort((a, b) => sign * (cmp(key(a), key(b)) || cmp(a.id, b.id)));
  const limit = Number(q.limit ?? 50);
  const from = (Number(q.page ?? 1) - 1) * limit;
  return { total: found.length, ids: found.slice(from, from + limit).map((m) => m.id) };
}

const TERMS = ["zolc", "ŻÓŁĆ", "Zo", "mü", "müller", "  Dupont ", "%", "0%", "_", "a_b", "o'b", 'zo"lc', "élodie zol", "nobody"];
const SHAPES: MemberListQuery[] = [
  {},
  { status: "active" },
  { sort: "name", page: 2, limit: 10 },
  { status: "active", sort: "name", page: 2, limit: 5 },
  { status: "expired", sort: "name", dir: "asc", page: 2, limit: 3 },
  { sort: "status", dir: "asc", page: 2, limit: 10 },
  { sort: "registered", dir: "asc", page: 3, limit: 7 },
  { sort: "email", page: 2, limit: 10 },
  { sort: "membership_end", dir: "asc", page: 2, limit: 10 },
];
const QUERIES = TERMS.flatMap((search) => SHAPES.map((shape) => ({ ...shape, search })));

const answerOf = (body: { total: number; items: { id: string }[] }) => ({ total: body.total, ids: body.items.map((i) => i.id) });

describe("member search, every way", () => {
  it("the dataset exercises the rule: many matches, accents, pages beyond the first", () => {
    expect(expected({ search: "zolc" }).total).toBe(expected({ search: "ŻÓŁĆ" }).total);
    expect(expected({ search: "zolc" }).total).toBeGreaterThan(50);
    expect(expected({ search: "%" }).total).toBeGreaterThan(0);
    expect(expected({ search: "_" }).total).toBeGreaterThan(expected({ search: "a_b" }).total);
    expect(expected({ search: "zolc", status: "active", sort: "name", page: 2, limit: 5 }).ids).toHaveLength(5);
    expect(expected({ search: "nobody" }).total).toBe(0);
  });

  it("answers what the rule gives, for every term, filter, sort and page", async () => {
    for (const q of QUERIES) {
      const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
      const res = await env.call("GET", `/api/clubs/${env.clubId}/members?${qs}`);
      expect(res.status).toBe(200);
      expect({ q, ...answerOf(res.body) }).toEqual({ q, ...expected(q) });
    }
  });

  it.skipIf(onPostgres)("on SQLite, the FTS5 index and the club's own indexes give the same answers, for the count and for the page", async () => {
    const ctx = await operatorCtx(env.db, env.clubId, env.config);
    const ways: SearchWays[] = [
      { count: "index", page: "index" },
      { count: "scan", page: "scan" },
      { count: "index", page: "scan" },
      { count: "scan", page: "index" },
    ];
    for (const q of QUERIES) {
      // A term shorter than a trigram has no index: forcing one would find nobody.
      if (foldText(q.search.trim()).length < 3) continue;
      for (const way of ways) expect({ q, way, ...answerOf(await membersPage(ctx, q, way)) }).toEqual({ q, way, ...expected(q) });
    }
  });

  it.skipIf(onPostgres)(
    "on SQLite, a search's page in registration or name order tests each member in the list's index, reading only the rows it shows",
    () => {
      // The page's own statement reads every column of the members it shows (found through that
      // index, "USING INDEX"): the test of the search text alone is the index's ("COVERING"). Its
      // own connection: an EXPLAIN left open on the server's reader would hold its snapshot.
      const conn = new Database(env.db.path, { readonly: true });
      try {
        const plan = (sql: string) => (conn.query(`EXPLAIN QUERY PLAN ${sql}`).all(env.clubId, "zolc") as { detail: string }[]).map((p) => p.detail);
        const covered = ["SEARCH members USING COVERING INDEX members_club_created_idx (club_id=?)"];
        expect(plan("SELECT id FROM members WHERE club_id = ? AND instr(search_text, ?) > 0 ORDER BY created_at DESC, id DESC LIMIT 50")).toEqual(covered);
        // The count reads either of the two indexes that carry the text, alone (SQLite takes the name's).
        expect(plan("SELECT count(*) FROM members WHERE club_id = ? AND instr(search_text, ?) > 0")).toEqual([
          expect.stringMatching(/^SEARCH members USING COVERING INDEX members_club_(created|sort_name)_idx \(club_id=\?\)$/),
        ]);
        expect(plan("SELECT id FROM members WHERE club_id = ? AND instr(search_text, ?) > 0 ORDER BY sort_name, id LIMIT 50")).toEqual([
          "SEARCH members USING COVERING INDEX members_club_sort_name_idx (club_id=?)",
        ]);
      } finally {
        conn.close();
      }
    },
  );

  it("marks a search's page a large answer, sent as one chunk as a kept page is (lib/reply)", async () => {
    const ctx = await operatorCtx(env.db, env.clubId, env.config);
    expect(isLargeAnswer(await membersPage(ctx, { search: "zolc" }))).toBe(true);
    expect(isLargeAnswer(await membersPage(ctx, { search: "nobody" }))).toBe(true);
    expect(isLargeAnswer(await membersPage(ctx, {}))).toBe(true);
  });

  it("counts a search again after a write, a search asked twice included", async () => {
    const count = async (search: string, status = "all") =>
      (await env.call("GET", `/api/clubs/${env.clubId}/members?search=${encodeURIComponent(search)}&status=${status}`)).body.total;
    expect(await count("quartz")).toBe(0);
    expect(await count("quartz")).toBe(0);
    const created = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Anouk", last_name: "Quartz", email: "anouk@test.org", membership_end: "2031-01-01" },
    });
    expect(created.status).toBe(201);
    expect(await count("quartz")).toBe(1);
    expect(await count("QUARTZ", "active")).toBe(1);
    const suspended = await env.call("POST", `/api/clubs/${env.clubId}/members/${created.body.id}/actions/suspend`, { body: { reason: "test" } });
    expect(suspended.status).toBe(200);
    expect(await count("quartz")).toBe(1);
    expect(await count("QUARTZ", "active")).toBe(0);
    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${created.body.id}`)).status).toBe(204);
    expect(await count("quartz")).toBe(0);
  });
});
