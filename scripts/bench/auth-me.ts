// GET /api/auth/me: the authenticated, audited read every client makes first. Ours (the real
// server) against scripts/bench/baseline-auth-me.ts, on fresh copies of a database holding one
// club, its owner and its all-edit key (what the server's first start creates).
import { type Benchmark, BENCH_RATE_LIMIT, type ConfigName, expectJson, loadCase } from "./common";
import { type Dataset, dataset } from "./datasets";

const PATH = "/api/auth/me";
let ds: Dataset;

export const authMe: Benchmark = {
  name: "auth-me",
  title: "GET /api/auth/me",
  about: [
    "An authenticated, audited read. **Ours**: the real server (`bun app/main.ts`: Elysia, Drizzle, key",
    "lookup, rate limit, the admin profile with its club, one audit row per request committed in groups",
    "before the answer leaves). **Baseline** (`baseline-auth-me.ts`): Bun.serve + bun:sqlite, key looked up",
    "by SHA-256, club read, one audit row inserted in its own transaction (one disk sync per request), JSON answer.",
  ],
  cases: [{ id: "read", title: "GET /api/auth/me", kind: "load", target: { kind: "ratio-min", value: 0.6 }, baseline: true }],
  async prepare(env) {
    ds = await dataset({ members: 0 }, env.log);
  },
  async run(config: ConfigName, round, env) {
    return [
      await loadCase({
        bench: "auth-me",
        caseId: "read",
        config,
        round,
        env,
        ds,
        baseline: "baseline-auth-me.ts",
        path: PATH,
        connections: env.settings.connections,
        async check(server) {
          const res = await fetch(server.url + PATH, { headers: { authorization: `Bearer ${ds.key}` } });
          if (config === "ours" && res.headers.get("ratelimit-limit") !== BENCH_RATE_LIMIT) {
            throw new Error(`ours: RateLimit-Limit is ${res.headers.get("ratelimit-limit")}, expected ${BENCH_RATE_LIMIT}`);
          }
          const body = await expectJson(res, `${config} GET ${PATH}`);
          return String(body.club_id);
        },
        rows: { audit: "SELECT count(*) AS n FROM audit_log" },
        describe: (d, requests) => `audit rows ${d.audit}/${requests} requests`,
      }),
    ];
  },
};
