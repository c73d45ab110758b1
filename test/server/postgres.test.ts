// DATABASE_URL as an operator meets it: another scheme, or a PostgreSQL server that is not there,
// stops the start in one line (no stack trace); a PostgreSQL server that goes away while the
// server serves makes it answer 503 with Retry-After (HTTP and MCP), and it serves again by
// itself once PostgreSQL is back. The last needs a PostgreSQL server: it runs when the suite runs
// on one (DATABASE_URL=postgres://...), through a TCP relay the test cuts and restores.
import { afterAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dropDatabase, freshDatabaseUrl, onPostgres } from "../databases";
import { freePort } from "../ports";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "club-pg-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function spawnServer(env: Record<string, string>) {
  return Bun.spawn(["bun", "app/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", BASE_URL: "", LOG_LEVEL: "silent", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}

async function refusal(databaseUrl: string) {
  const proc = spawnServer({ PORT: String(freePort()), DATABASE_URL: databaseUrl });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, stdout, stderr };
}

describe("DATABASE_URL at start", () => {
  it("another scheme: exit 1, one line naming the setting and what it takes", async () => {
    const run = await refusal("mysql://root@127.0.0.1/club");
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      'Cannot start: DATABASE_URL has the scheme "mysql://", which this server does not use: give a SQLite file path (data/club.db) or a postgres:// address.',
    ]);
  }, 30_000);

  it("a PostgreSQL server that is not there: exit 1, one line naming the host and the setting, no stack trace", async () => {
    const run = await refusal("postgres://club:secret@127.0.0.1:1/club");
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith("Cannot start: PostgreSQL at 127.0.0.1:1/club (DATABASE_URL) cannot be reached");
    expect(run.stderr).not.toContain("secret");
    expect(run.stderr).not.toContain("    at ");
  }, 30_000);
});

/** A TCP relay from a local port to PostgreSQL that the test can cut (every connection closed, none taken) and restore. */
function relay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const port = freePort();
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("error", () => {});
          s.on("close", () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  return {
    port,
    open,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server?.close(() => resolve());
      }),
  };
}

describe.skipIf(!onPostgres)("PostgreSQL going away while serving", () => {
  it("answers 503 with Retry-After (HTTP and MCP), loses nothing acknowledged, and serves again once it is back", async () => {
    const url = new URL(await freshDatabaseUrl(dir));
    const through = relay(url);
    await through.open();
    const viaRelay = new URL(url);
    viaRelay.host = `127.0.0.1:${through.port}`;
    const port = freePort();
    const proc = spawnServer({ PORT: String(port), DATABASE_URL: viaRelay.toString() });
    try {
      const reader = proc.stdout.getReader();
      let out = "";
      while (!out.includes("Listening on")) {
        const { value, done } = await reader.read();
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      if (!out.includes("Listening on")) throw new Error(`the server stopped before listening; it printed: ${out}`);
      const key = /API key:\s+(mk_live_\w+)/.exec(out)?.[1] ?? "";
      const clubId = /club_id:\s+([0-9a-f-]{36})/.exec(out)?.[1] ?? "";
      const base = `http://127.0.0.1:${port}`;
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const addTier = (name: string) =>
        fetch(`${base}/api/clubs/${clubId}/tiers`, { method: "POST", headers, body: JSON.stringify({ name, price_cents: 1000 }) });
      expect((await addTier("Before")).status).toBe(201);

      await through.cut();
      const during = await addTier("During");
      expect(during.status).toBe(503);
      expect(Number(during.headers.get("retry-after"))).toBeGreaterThan(0);
      const mcp = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: { ...headers, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_tiers", arguments: {} } }),
      });
      expect(mcp.status).toBe(503);
      expect(Number(mcp.headers.get("retry-after"))).toBeGreaterThan(0);

      await through.open();
      let after: Response | null = null;
      for (let i = 0; i < 40 && after?.status !== 201; i++) {
        if (i) await Bun.sleep(250);
        after = await addTier("After");
      }
      expect(after?.status).toBe(201);
      const tiers = (await (await fetch(`${base}/api/clubs/${clubId}/tiers`, { headers })).json()) as { items?: { name: string }[] } | { name: string }[];
      const names = (Array.isArray(tiers) ? tiers : (tiers.items ?? [])).map((t) => t.name).sort();
      expect(names).toEqual(["After", "Before"]);
    } catch (err) {
      proc.kill("SIGKILL");
      throw new Error(`${err}\nserver said: ${await new Response(proc.stderr).text()}`);
    } finally {
      proc.kill("SIGKILL");
      await proc.exited;
      await through.cut();
      await dropDatabase(url.toString());
    }
  }, 90_000);
});
