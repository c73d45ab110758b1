// Check-in at the door, POST /api/clubs/<club_id>/events/<event_id>/checkin, with 64 connections
// over an event with 10,000 confirmed registrations: a wrk Lua script sends the tickets' qr tokens
// one after the other, round and round. The first scan of a ticket is `valid`; once every ticket
// has been scanned the next ones answer `already` (each run reports how many of each).
import { join } from "node:path";
import { type BenchEnv, type Benchmark, type ConfigName, cycleScript, expectJson, type LoadCase, loadCase } from "./common";
import { type Dataset, dataset } from "./datasets";

let ds: Dataset;

export const checkin: Benchmark = {
  name: "checkin",
  title: "POST /api/clubs/<club_id>/events/<event_id>/checkin",
  about: [
    "64 connections scanning the qr tokens of an event with 10,000 confirmed registrations (a wrk Lua script cycles",
    "through them; after the first pass every scan is `already`: each run's split is in the table of every run).",
    "**Ours**: the real server (key, rate limit, body validated by zod, `checkinEvent`: one transaction on the single",
    "writer, its statements prepared once, that reads the event, finds the registration by qr token, sets `checked_in_at`",
    "on a first scan, inserts the check-in row and reads the ticket's name; then the audit row. Transactions of requests",
    "waiting at the same moment share one commit (db.tx group commit), each in its own savepoint). **Baseline** (`baseline-checkin.ts`): Bun.serve + bun:sqlite, key by SHA-256, club check, then one",
    "`BEGIN IMMEDIATE` transaction with the same steps: event read, registration by qr token, the single-row update",
    "`SET checked_in_at ... WHERE id = ? AND checked_in_at IS NULL` on a first scan, check-in row insert, ticket name,",
    "and the audit row insert: one disk sync per request. Both answer `{verdict, checked_in_at, registration}`.",
  ],
  cases: [
    {
      id: "scan",
      title: "check-in, 64 connections, 10,000 registrations",
      kind: "load",
      target: { kind: "ratio-min", value: 0.6 },
      baseline: true,
    },
  ],
  async prepare(env) {
    ds = await dataset({ members: 10_000, registrations: 10_000 }, env.log);
  },
  async run(config: ConfigName, round, env) {
    return [await loadCase(scanCase(ds, config, round, env))];
  },
};

/**
 * The scan run of `config` on `ds` (its event's tokens, 64 connections): the hand baseline's
 * script is `baseline-checkin.ts`.
 */
export function scanCase(ds: Dataset, config: ConfigName, round: number, env: BenchEnv): LoadCase {
  const event = ds.event as NonNullable<Dataset["event"]>;
  const path = `/api/clubs/${ds.clubId}/events/${event.id}/checkin`;
  return {
    bench: "checkin",
    caseId: "scan",
    config,
    round,
    env,
    ds,
    baseline: "baseline-checkin.ts",
    path,
    method: "POST",
    connections: env.settings.scanConnections,
    // The last token is scanned by hand first (the check); the script starts from the first.
    script: (dir) =>
      cycleScript(join(dir, "checkin.lua"), { method: "POST", items: event.qrTokens, path: () => path, body: (code) => JSON.stringify({ code }) }),
    async check(server) {
      const code = event.qrTokens[event.qrTokens.length - 1];
      const res = await fetch(server.url + path, {
        method: "POST",
        headers: { authorization: `Bearer ${ds.key}`, "content-type": "application/json" },
        body: JSON.stringify({ code }),
      });
      const body = (await expectJson(res, `${config} POST ${path}`)) as {
        verdict: string;
        checked_in_at: string | null;
        registration: { id: string; first_name: string; last_name: string; ticket_name: string } | null;
      };
      if (body.verdict !== "valid" || !body.checked_in_at || !body.registration) throw new Error(`${config} check-in: ${JSON.stringify(body)}`);
      const r = body.registration;
      return `${body.verdict} ${r.first_name} ${r.last_name} (${r.ticket_name})`;
    },
    rows: {
      valid: "SELECT count(*) AS n FROM check_ins WHERE verdict = 'valid'",
      already: "SELECT count(*) AS n FROM check_ins WHERE verdict = 'already'",
      other: "SELECT count(*) AS n FROM check_ins WHERE verdict NOT IN ('valid', 'already')",
      checkedIn: "SELECT count(*) AS n FROM event_registrations WHERE checked_in_at IS NOT NULL",
      audit: "SELECT count(*) AS n FROM audit_log",
    },
    describe: (d, requests) =>
      `${requests} scans: ${d.valid} valid, ${d.already} already${d.other ? `, ${d.other} other` : ""}; ` +
      `registrations checked in +${d.checkedIn}; check-in rows ${d.valid + d.already + d.other}, audit rows ${d.audit}`,
  };
}
