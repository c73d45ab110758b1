// The member list, GET /api/clubs/<club_id>/members, over 10,000 and 100,000 members: a page of
// 50 with its `total`, in the default sort (registered, newest first), then with a search. Ours
// (the real server) against scripts/bench/baseline-members.ts, which runs the same SQL by hand.
import { type Benchmark, type ConfigName, expectJson, loadCase } from "./common";
import { type Dataset, dataset } from "./datasets";

/** Matches the family name "Żółć" (one member in ten) with its accents left out, as people type it. */
const SEARCH = "zolc";

function membersBenchmark(count: number, label: string): Benchmark {
  let ds: Dataset;
  const name = `members-${label}`;
  const cases = [
    { id: "default", query: "", title: `list page of 50, default sort, ${count.toLocaleString("en")} members` },
    { id: "search", query: `?search=${SEARCH}`, title: `list page of 50, search "${SEARCH}", ${count.toLocaleString("en")} members` },
  ];
  return {
    name,
    title: `GET /api/clubs/<club_id>/members, ${count.toLocaleString("en")} members`,
    about: [
      `A page of 50 with \`total\` among ${count.toLocaleString("en")} members (60% paid, 20% pending, 20% suspended, two tiers),`,
      `in the default sort (registered, newest first), and with \`search=${SEARCH}\` (accents ignored: one member in ten).`,
      "**Ours**: the real server (key, rate limit, query validated by zod, `listMembers`: a count and the page",
      "through Drizzle with three left joins for the tier, pending tier and referrer names, items shaped and",
      "checked against MemberListResponse, audit row group-committed). **Baseline** (`baseline-members.ts`):",
      "Bun.serve + bun:sqlite, key by SHA-256, club check, the same count and page SQL, the same item shape,",
      "one audit row in its own transaction. Each run checks that both answer the same `total` and ids.",
    ],
    cases: cases.map((c) => ({ id: c.id, title: c.title, kind: "load" as const, target: { kind: "ratio-min" as const, value: 0.6 }, baseline: true })),
    async prepare(env) {
      ds = await dataset({ members: count }, env.log);
    },
    async run(config: ConfigName, round, env) {
      const out = [];
      for (const c of cases) {
        const path = `/api/clubs/${ds.clubId}/members${c.query}`;
        out.push(
          await loadCase({
            bench: name,
            caseId: c.id,
            config,
            round,
            env,
            ds,
            baseline: "baseline-members.ts",
            path,
            connections: env.settings.connections,
            async check(server) {
              const body = (await expectJson(await fetch(server.url + path, { headers: { authorization: `Bearer ${ds.key}` } }), `${config} GET ${path}`)) as {
                total: number;
                items: { id: string; status: string; tier_name: string | null }[];
              };
              if (body.items.length !== Math.min(50, body.total) || !body.total)
                throw new Error(`${config} GET ${path}: ${body.items.length} items of ${body.total}`);
              const ids = body.items.map((i) => `${i.id}:${i.status}:${i.tier_name}`).join(",");
              return `total ${body.total}, items ${new Bun.CryptoHasher("sha1").update(ids).digest("hex").slice(0, 12)}`;
            },
            rows: { audit: "SELECT count(*) AS n FROM audit_log" },
            describe: (d, requests) => `audit rows ${d.audit}/${requests} requests`,
          }),
        );
      }
      return out;
    },
  };
}

export const members10k = membersBenchmark(10_000, "10k");
export const members100k = membersBenchmark(100_000, "100k");
