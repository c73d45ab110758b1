// What an Idempotency-Key costs a write: POST /api/clubs/<club_id>/members/manual with 32
// connections, each request a new member, sent with a fresh `Idempotency-Key` (ours) and
// without one (the baseline: the same real server, the same requests minus the header). The two
// run interleaved in the same rounds on fresh copies of the same dataset; the key must keep at
// least 85 % of the throughput.
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { daysFromNow } from "../../lib/schema-types";
import { type BenchEnv, type Benchmark, type ConfigName, expectJson, type LoadCase, loadCase } from "./common";
import { type Dataset, dataset } from "./datasets";

let ds: Dataset;

/**
 * A wrk Lua script: request i adds member `bench-<i>@bench.example`, with `Idempotency-Key:
 * bench-<i>` when `keyed`. Numbering starts after the count given as first argument (the
 * warm-up's requests), so the measured run neither repeats a member nor replays a key.
 */
function writeScript(file: string, path: string, keyed: boolean): string {
  const end = daysFromNow(365);
  const lua = [
    "local i = 0",
    "init = function(args)",
    "  if args[1] then i = tonumber(args[1]) end",
    "end",
    "request = function()",
    "  i = i + 1",
    "  local h = {}",
    "  for k, v in pairs(wrk.headers) do h[k] = v end",
    keyed ? '  h["Idempotency-Key"] = "bench-" .. i' : "",
    `  return wrk.format("POST", ${JSON.stringify(path)}, h, '{"first_name":"Bench","last_name":"Writer","email":"bench-' .. i .. '@bench.example","membership_end":"${end}"}')`,
    "end",
    "",
  ].join("\n");
  writeFileSync(file, lua);
  return file;
}

export const idempotency: Benchmark = {
  name: "idempotency",
  title: "POST /api/clubs/<club_id>/members/manual with and without Idempotency-Key",
  about: [
    "32 connections adding members by hand, each request a new member (a wrk Lua script numbers them), on a club of",
    "10,000 members. **Ours**: the real server, every request with a fresh `Idempotency-Key`: on top of the write, the key",
    "is claimed in the process's memory after a look for a kept answer (a read), the body hashed (SHA-256), the key looked",
    "at again under its lock as the write's transaction opens, and the answer kept in that same transaction (lib/idempotency",
    "`KeyedWrite`); transactions of requests waiting at the same moment share one commit. **Baseline**: the same server and",
    "the same requests without the header. Both answer 201 with the member; each run reports the members and kept keys it wrote.",
  ],
  cases: [
    {
      id: "keyed",
      title: "add member, fresh Idempotency-Key vs none, 32 connections",
      kind: "load",
      target: { kind: "ratio-min", value: 0.85 },
      baseline: true,
    },
  ],
  async prepare(env) {
    ds = await dataset({ members: 10_000 }, env.log);
  },
  async run(config: ConfigName, round, env) {
    return [await loadCase(addMemberCase(ds, config, round, env, config === "ours"))];
  },
};

/**
 * The add-member run of `config` on `ds`: 32 connections, a new member each, with a fresh
 * Idempotency-Key when `keyed`.
 */
export function addMemberCase(ds: Dataset, config: ConfigName, round: number, env: BenchEnv, keyed: boolean): LoadCase {
  const path = `/api/clubs/${ds.clubId}/members/manual`;
  return {
    bench: "idempotency",
    caseId: "keyed",
    config,
    round,
    env,
    ds,
    baseline: null,
    path,
    method: "POST",
    connections: env.settings.connections,
    script: (dir) => writeScript(join(dir, "add-member.lua"), path, keyed),
    async check(server) {
      const headers: Record<string, string> = { authorization: `Bearer ${ds.key}`, "content-type": "application/json" };
      if (keyed) headers["idempotency-key"] = "bench-check";
      const body = JSON.stringify({ first_name: "Bench", last_name: "Check", email: "bench-check@bench.example", membership_end: daysFromNow(365) });
      const created = await expectJson(await fetch(server.url + path, { method: "POST", headers, body }), `${config} POST ${path}`, 201);
      return `201 ${created.status} member`;
    },
    rows: { members: "SELECT count(*) AS n FROM members", keys: "SELECT count(*) AS n FROM idempotency_keys" },
    describe: (d, requests) => `members +${d.members}, kept keys +${d.keys}, of ${requests} requests`,
  };
}
