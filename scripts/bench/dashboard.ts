// The dashboard's overview (/admin) and members page (/admin/members: the first page of 50, and a
// search) with 10,000 members, beside the API's list (members-10k): each page timed by the client
// from the request to the last byte, one request at a time, on the real server signed in through
// the sign-in form. Target (issue 16): p50 under 50 ms.
import { join } from "node:path";
import { openDb } from "../../db";
import { createAdmin } from "../../lib/auth/admins";
import { type Benchmark, type Measurement, startOurs, timedMeasurement } from "./common";
import { type Dataset, dataset, freshCopy } from "./datasets";
import { makeTempDir, peakRssKb, removeTempDir, type Server } from "./harness";

const MEMBERS = 10_000;
/** Timed requests per page per round, after three untimed. */
const REQUESTS = 40;
const EMAIL = "dashboard-bench@example.org";
const PASSWORD = "dashboard-bench-password";

const PAGES = {
  overview: { path: "/admin", title: "GET /admin (overview: counts, revenue by month, attendance by week)" },
  members: { path: "/admin/members", title: "GET /admin/members (first page of 50, default sort)" },
  search: { path: "/admin/members?search=zolc", title: "GET /admin/members?search=zolc (one member in ten, accents ignored)" },
} as const;
type PageId = keyof typeof PAGES;

let ds: Dataset;

/** Signs in through the form (double-submit token, then the session cookie) and answers the cookie header. */
async function signIn(server: Server): Promise<string> {
  const form = await fetch(`${server.url}/admin/login`);
  const loginCookie = (form.headers.getSetCookie()[0] ?? "").split(";")[0];
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const res = await fetch(`${server.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: loginCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: token, email: EMAIL, password: PASSWORD }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("club_session="));
  if (res.status !== 303 || !session) throw new Error(`dashboard sign-in: ${res.status}`);
  return session.split(";")[0];
}

async function timedPages(round: number, log: (line: string) => void): Promise<Measurement[]> {
  const dir = makeTempDir("club-bench-dashboard-");
  let server: Server | undefined;
  try {
    const dbPath = freshCopy(ds, dir);
    const db = await openDb(dbPath);
    await db.tx((t) => createAdmin(t, { clubId: ds.clubId, email: EMAIL, password: PASSWORD }));
    db.close();
    server = await startOurs(dbPath, dir);
    const cookie = await signIn(server);
    const out: Measurement[] = [];
    for (const id of Object.keys(PAGES) as PageId[]) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < REQUESTS + 3; i++) {
        const started = performance.now();
        const res = await fetch(server.url + PAGES[id].path, { headers: { cookie }, redirect: "manual" });
        const body = await res.text();
        const ms = performance.now() - started;
        if (res.status !== 200) throw new Error(`dashboard ${PAGES[id].path}: ${res.status} ${body.slice(0, 300)}`);
        bytes = body.length;
        if (i >= 3) times.push(ms);
      }
      const m = timedMeasurement({
        bench: "dashboard",
        caseId: id,
        round,
        config: "ours",
        times,
        peakKb: peakRssKb(server.pid),
        growthKb: null,
        signature: null,
        note: `${MEMBERS} members, ${bytes} characters of HTML; ${REQUESTS} requests one at a time`,
      });
      log(`round ${round} ${`dashboard/${id}`.padEnd(24)} ours     median ${m.p50Ms.toFixed(1)} ms  slowest ${m.p99Ms.toFixed(1)} ms`);
      out.push(m);
    }
    return out;
  } finally {
    await server?.stop();
    removeTempDir(dir);
  }
}

export const dashboardBench: Benchmark = {
  name: "dashboard",
  title: "The dashboard's overview and members pages, 10,000 members",
  about: [
    "Ours only: the real server (`bun app/main.ts`) on a copy of the 10,000-member dataset of members-10k, an",
    "admin signed in through the sign-in form; each page fetched with the session cookie one request at a time and",
    `timed by the client to the last byte (${REQUESTS} timed after 3 untimed per round): the session read and its`,
    "refresh, the admin's profile, the lib/ verbs (clubStats, revenueByMonth, attendanceByWeek; listMembers), the",
    `JSX rendered to HTML. Target: p50 under 50 ms. Files: ${join("scripts", "bench", "dashboard.ts")}.`,
  ],
  cases: (Object.keys(PAGES) as PageId[]).map((id) => ({
    id,
    title: `${PAGES[id].title}, 10,000 members`,
    kind: "time" as const,
    target: { kind: "ms-max" as const, value: 50 },
    baseline: false,
  })),
  async prepare(env) {
    ds = await dataset({ members: MEMBERS }, env.log);
  },
  async run(config, round, env) {
    if (config === "baseline") return [];
    return timedPages(round, env.log);
  },
};

/** For a quick look: `bun scripts/bench/dashboard.ts`. */
if (import.meta.main) {
  await dashboardBench.prepare({ log: console.error } as never);
  await timedPages(1, console.error);
}
