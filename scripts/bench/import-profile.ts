// Where a member import's time goes, in a process of its own (issue 31): `importMembers` as the
// CLI runs it on a fresh copy of a benchmark dataset, with every SQLite statement timed by what it
// does ("insert members", "COMMIT"...), the rests and collections the import takes, and the check
// pass (up to the first progress report) apart from the writing. Not part of `bun run bench`: a
// tool for reading one import closely.
//
//   bun scripts/bench/import-profile.ts MEMBERS LINES create|update|renew [ROUNDS]
//
// `update` renames the club's first members and gives them a later end (the bench's file);
// `renew` gives them the later end alone (a season's renewals: names left blank, unchanged).
//
// The dataset is seeded once (scripts/bench/datasets.ts) and kept in $TMPDIR/club-import-profile/.
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function io(): Record<string, number> {
  return Object.fromEntries(
    readFileSync("/proc/self/io", "utf8")
      .trim()
      .split("\n")
      .map((l) => {
        const [k, v] = l.split(": ");
        return [k, Number(v)];
      }),
  );
}
const ioText = (a: Record<string, number>, b: Record<string, number>) =>
  `read ${((b.rchar - a.rchar) / 1e6).toFixed(0)} MB in ${b.syscr - a.syscr} calls, written ${((b.wchar - a.wchar) / 1e6).toFixed(0)} MB in ${b.syscw - a.syscw} calls`;
const [membersArg, linesArg, kindArg, roundsArg] = Bun.argv.slice(2);
const MEMBERS = Number(membersArg ?? 10_000);
const LINES = Number(linesArg ?? 5_000);
const KIND = (kindArg ?? "create") as "create" | "update" | "renew";
const ROUNDS = Number(roundsArg ?? 1);

type Tally = { n: number; ms: number };
const sqlTime = new Map<string, Tally>();
const add = (map: Map<string, Tally>, key: string, ms: number) => {
  const t = map.get(key) ?? { n: 0, ms: 0 };
  t.n++;
  t.ms += ms;
  map.set(key, t);
};

/** What a statement does, in a few words: its verb and table. */
function kindOf(sql: string): string {
  const s = sql.trim().replace(/\s+/g, " ");
  const m = /^(insert into|delete from|update|replace into) [`"]?(\w+)/i.exec(s) ?? /^(select) .*? from [`"(]*(\w+)/i.exec(s) ?? /^(\w+)(?: (\w+))?/.exec(s);
  return m ? `${m[1].toLowerCase()} ${m[2] ?? ""}`.trim() : s.slice(0, 40);
}

// Every statement of every connection timed, by the text it was prepared from (bun:sqlite sets a
// statement's methods on the statement itself, hence wrapped one by one).
const dbProto = Database.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
const timed = (stmt: Record<string, (...a: unknown[]) => unknown>, key: string) => {
  for (const name of ["run", "all", "get", "values"]) {
    const original = stmt[name];
    if (typeof original !== "function") continue;
    stmt[name] = (...args: unknown[]) => {
      const began = performance.now();
      try {
        return original.apply(stmt, args);
      } finally {
        add(sqlTime, key, performance.now() - began);
      }
    };
  }
  return stmt;
};
const seen = new WeakSet<object>();
for (const name of ["prepare", "query"]) {
  const original = dbProto[name];
  dbProto[name] = function (this: unknown, sql: unknown, ...rest: unknown[]) {
    const stmt = original.call(this, sql, ...rest) as Record<string, (...a: unknown[]) => unknown>;
    if (seen.has(stmt)) return stmt;
    seen.add(stmt);
    return timed(stmt, kindOf(String(sql)));
  };
}
for (const name of ["exec", "run"]) {
  const original = dbProto[name];
  dbProto[name] = function (this: unknown, sql: unknown, ...rest: unknown[]) {
    const began = performance.now();
    try {
      return original.call(this, sql, ...rest);
    } finally {
      add(sqlTime, kindOf(String(sql)), performance.now() - began);
    }
  };
}

const rests: Tally = { n: 0, ms: 0 };
const sleep = Bun.sleep;
(Bun as { sleep: typeof Bun.sleep }).sleep = async (ms: number | Date) => {
  const began = performance.now();
  await sleep(ms);
  rests.n++;
  rests.ms += performance.now() - began;
};
const gcs: Tally = { n: 0, ms: 0 };
const gc = Bun.gc;
(Bun as { gc: typeof Bun.gc }).gc = (force?: boolean) => {
  const began = performance.now();
  const r = gc(force);
  gcs.n++;
  gcs.ms += performance.now() - began;
  return r;
};

const { openDb } = await import("../../db");
const { operatorCtx } = await import("../../lib/auth/operator");
const { loadConfig } = await import("../../lib/config");
const { importMembers } = await import("../../lib/members/import");
const { dataset } = await import("./datasets");

const store = join(tmpdir(), "club-import-profile");
mkdirSync(store, { recursive: true });
const template = join(store, `${MEMBERS}.db`);
const about = join(store, `${MEMBERS}.json`);
if (!existsSync(template) || !existsSync(about)) {
  const ds = await dataset({ members: MEMBERS, ...(MEMBERS === 10_000 ? { registrations: 10_000 } : {}) }, console.error);
  copyFileSync(ds.path, template);
  writeFileSync(about, JSON.stringify({ clubId: ds.clubId }));
  rmSync(ds.dir, { recursive: true, force: true });
}
const { clubId } = JSON.parse(readFileSync(about, "utf8")) as { clubId: string };

function csvFile(n: number, tag: string): string {
  const lines = Array.from({ length: n }, (_, i) =>
    KIND === "create"
      ? `Élodie;Import${tag}x${i};import${tag}x${i}@bench.example.org;31.12.2031`
      : KIND === "update"
        ? `Zoé;Renamed${tag}x${i};member${i}@bench.example.org;31.12.2032`
        : `;;member${i}@bench.example.org;31.12.2032`,
  );
  return `Prénom;Nom;E-Mail;Échéance\n${lines.join("\n")}\n`;
}

const hwm = () => Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? Number.NaN);
/**
 * The main thread's time on a CPU and waiting in the run queue for one (/proc/<pid>/task/<pid>/schedstat,
 * nanoseconds): on a shared machine the wall time is that CPU, that wait, the import's own rests
 * and what it waited for the disk (the rest).
 */
const sched = () => {
  const [onCpu, queued] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ").map(Number);
  return { onCpu: onCpu / 1e6, queued: queued / 1e6 };
};
const cpu = () => {
  const u = process.cpuUsage();
  return { user: u.user / 1000, system: u.system / 1000 };
};

for (let round = 1; round <= ROUNDS; round++) {
  const dir = join(store, `run-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "club.db");
  copyFileSync(template, path);
  const db = await openDb(path);
  // Trials: PRAGMAS="cache_size=-32000;wal_autocheckpoint=0" on the writer, DROP="trigger,..." and
  // DROP_INDEX="index,..." dropped, EXEC="statement;..." run (an FTS5 setting: members_search's automerge).
  const raw = (db as unknown as { raw: Database }).raw;
  for (const p of (process.env.PRAGMAS ?? "").split(";").filter(Boolean)) raw.exec(`PRAGMA ${p}`);
  for (const t of (process.env.DROP ?? "").split(",").filter(Boolean)) raw.exec(`DROP TRIGGER IF EXISTS ${t}`);
  for (const t of (process.env.EXEC ?? "").split(";").filter(Boolean)) raw.exec(t);
  for (const t of (process.env.DROP_INDEX ?? "").split(",").filter(Boolean)) raw.exec(`DROP INDEX IF EXISTS ${t}`);
  const ctx = await operatorCtx(db, clubId, loadConfig({ DATABASE_URL: path, OUTBOX_DIR: join(dir, "outbox"), BASE_URL: "http://127.0.0.1" }));
  const csv = new TextEncoder().encode(csvFile(LINES, `p${round}`));
  sqlTime.clear();
  Object.assign(rests, { n: 0, ms: 0 });
  Object.assign(gcs, { n: 0, ms: 0 });
  const before = hwm();
  const cpuBefore = cpu();
  const ioBefore = io();
  const schedBefore = sched();
  const began = performance.now();
  let firstReport = 0;
  const r = await importMembers(ctx, {
    csv,
    mode: KIND === "create" ? "create" : "update",
    onProgress: () => {
      firstReport ||= performance.now() - began;
    },
  });
  const ms = performance.now() - began;
  const cpuAfter = cpu();
  const ioAfter = io();
  const schedAfter = sched();
  const after = hwm();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  const sqlMs = [...sqlTime.values()].reduce((s, t) => s + t.ms, 0);
  console.log(
    `round ${round}: ${MEMBERS} members, ${LINES} lines ${KIND}: ${ms.toFixed(0)} ms (created ${r.created}, updated ${r.updated}, errors ${r.errors.length}); ` +
      `CPU user ${(cpuAfter.user - cpuBefore.user).toFixed(0)} ms, system ${(cpuAfter.system - cpuBefore.system).toFixed(0)} ms; VmHWM +${((after - before) / 1024).toFixed(1)} MB`,
  );
  console.log(
    `  check pass (to the first report) ${firstReport.toFixed(0)} ms; SQL ${sqlMs.toFixed(0)} ms; rests ${rests.ms.toFixed(0)} ms (${rests.n}); gc ${gcs.ms.toFixed(0)} ms (${gcs.n})`,
  );
  console.log(`  ${ioText(ioBefore, ioAfter)}`);
  const onCpu = schedAfter.onCpu - schedBefore.onCpu;
  const queued = schedAfter.queued - schedBefore.queued;
  console.log(
    `  main thread: on a CPU ${onCpu.toFixed(0)} ms, waiting for one ${queued.toFixed(0)} ms; rests ${rests.ms.toFixed(0)} ms; ` +
      `the rest (the disk, other threads) ${(ms - onCpu - queued - rests.ms).toFixed(0)} ms`,
  );
  console.log(`  JS and the rest: ${(ms - sqlMs - rests.ms - gcs.ms).toFixed(0)} ms`);
  for (const [k, t] of [...sqlTime].sort((a, b) => b[1].ms - a[1].ms).slice(0, 16)) {
    console.log(`  ${k.padEnd(36)} ${t.ms.toFixed(1).padStart(9)} ms  ${String(t.n).padStart(6)} x  ${((t.ms / t.n) * 1000).toFixed(0).padStart(7)} µs`);
  }
}
