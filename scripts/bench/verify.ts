// Card verification at the door, GET /api/verify/<serial>, with 64 connections: a wrk Lua script
// asks about the pass serials of the 10,000 members one after the other, round and round. Ours
// against, in the same rounds, the hand baseline and our own GET /api/auth/me (64 connections too).
import { join } from "node:path";
import { type Benchmark, type ConfigName, cycleScript, expectJson, loadCase } from "./common";
import { type Dataset, dataset } from "./datasets";

let ds: Dataset;

export const verify: Benchmark = {
  name: "verify",
  title: "GET /api/verify/<serial>",
  about: [
    "64 connections verifying the cards of 10,000 members (a wrk Lua script cycles through their pass serials;",
    "60% paid, 20% pending, 20% suspended, ends spread over 400 days: every verdict occurs).",
    "**Ours**: the real server (key, rate limit, path validated by zod, `verifyCard`: the member found by pass",
    "serial or referral code with its tier name on the read connection, the derived status, the scan row inserted",
    "in a transaction on the single writer, then the audit row; transactions of requests waiting at the same moment",
    "share one commit (db.tx group commit); answer checked against CardVerification). **Baseline** (`baseline-verify.ts`): Bun.serve + bun:sqlite, key by",
    "SHA-256, the same lookup SQL, the same status rule, then one transaction inserting the scan row and the audit",
    "row: one disk sync per request. Both answer `{valid, status, member, scanned_at}`. **auth/me**: our own",
    "`GET /api/auth/me` on the same database with as many connections: the cheapest request that still looks up a",
    "key, counts the rate and writes an audit row (DESIGN.md section 24: verify at least 0.6 of it).",
  ],
  cases: [
    { id: "scan", title: "verify, 64 connections, 10,000 members", kind: "load", target: { kind: "ratio-min", value: 0.6 }, baseline: true },
    {
      id: "scan-me",
      title: "verify, 64 connections, 10,000 members, against our GET /api/auth/me",
      kind: "load",
      target: { kind: "ratio-min", value: 0.6 },
      baseline: true,
    },
  ],
  async prepare(env) {
    ds = await dataset({ members: 10_000, registrations: 10_000 }, env.log);
  },
  async run(config: ConfigName, round, env) {
    const scan = await loadCase({
      bench: "verify",
      caseId: "scan",
      config,
      round,
      env,
      ds,
      baseline: "baseline-verify.ts",
      path: `/api/verify/${ds.serials[0]}`,
      connections: env.settings.scanConnections,
      script: (dir) => cycleScript(join(dir, "verify.lua"), { method: "GET", items: ds.serials, path: (serial) => `/api/verify/${serial}` }),
      async check(server) {
        const out: string[] = [];
        // Two members (one paid, one suspended) and a code that matches no one.
        for (const serial of [ds.serials[0], ds.serials[4], "NOSUCHCODE"]) {
          const res = await fetch(`${server.url}/api/verify/${serial}`, { headers: { authorization: `Bearer ${ds.key}` } });
          const body = (await expectJson(res, `${config} GET /api/verify/${serial}`)) as {
            valid: boolean;
            status: string;
            member: { id: string; tier_name: string | null; membership_end: string } | null;
          };
          out.push(`${body.status}${body.member ? ` ${body.member.id.slice(-6)} ${body.member.tier_name} ${body.member.membership_end}` : ""}`);
        }
        return out.join("; ");
      },
      rows: { scans: "SELECT count(*) AS n FROM scans", audit: "SELECT count(*) AS n FROM audit_log" },
      describe: (d, requests) => `${requests} requests: scan rows ${d.scans}, audit rows ${d.audit}`,
    });
    if (config === "ours") return [scan, { ...scan, caseId: "scan-me", signature: "" }];
    const me = await loadCase({
      bench: "verify",
      caseId: "scan-me",
      config,
      round,
      env,
      ds,
      baseline: null,
      server: "ours",
      path: "/api/auth/me",
      connections: env.settings.scanConnections,
      async check(server) {
        await expectJson(await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${ds.key}` } }), "ours GET /api/auth/me");
        return "";
      },
      rows: { audit: "SELECT count(*) AS n FROM audit_log" },
      describe: (d, requests) => `GET /api/auth/me: audit rows ${d.audit}/${requests} requests`,
    });
    return [scan, me];
  },
};
