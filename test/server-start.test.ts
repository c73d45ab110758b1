// The first start as a new user meets it: `bun app/main.ts` on an empty database creates a
// club, its owner and a key, prints the key once with the club id and the docs address; a later
// start on the same file prints nothing secret and the key still works.
import { afterAll, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../db";
import { clubs as clubsTable } from "../db/schema";
import { dropDatabase, freshDatabaseUrl } from "./databases";
import { freePort } from "./ports";
import { ROOT, startServer } from "./reliability/server-process";

const dir = mkdtempSync(join(tmpdir(), "club-start-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the server on `port` as `bun run start` does, waits until it listens: what it printed, and a way to stop it. */
const start = (port: number) => startServer(join(dir, "club.db"), {}, { port });

describe("bun run start", () => {
  const port = freePort();
  let key = "";

  it("on an empty database prints a key once, with the club id and the docs address, and serves it", async () => {
    const server = await start(port);
    try {
      key = /API key:\s+(mk_live_\w+)/.exec(server.out)?.[1] ?? "";
      const clubId = /club_id:\s+([0-9a-f-]{36})/.exec(server.out)?.[1];
      expect(key).toMatch(/^mk_live_[0-9A-Za-z]{32,}$/);
      expect(server.out).toContain(`http://127.0.0.1:${port}/api/public/docs`);
      const me = await fetch(`http://127.0.0.1:${port}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      const club = await me.json();
      expect(club.club_id).toBe(clubId);
      // CLUB_NAME unset: named in the language the club starts in (fr), renamed in the settings.
      const named = await fetch(`http://127.0.0.1:${port}/api/clubs/${clubId}`, { headers: { authorization: `Bearer ${key}` } });
      expect(await named.json()).toMatchObject({ name: "Mon club", locale: "fr" });
    } finally {
      await server.stop();
    }
  });

  it("on a second start prints nothing secret, and the key still works", async () => {
    const server = await start(port);
    try {
      expect(server.out).not.toContain("mk_live_");
      expect(server.out).toContain("Listening on");
      const me = await fetch(`http://127.0.0.1:${port}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("three processes started at once on an empty database (a host's units)", () => {
  it("make one club: one of them prints its key and sign-in link, the others nothing secret, and the key works on all three", async () => {
    const url = await freshDatabaseUrl(dir, "three.db");
    const servers = await Promise.all([1, 2, 3].map(() => startServer(url)));
    try {
      const printed = servers.filter((s) => s.out.includes("API key:"));
      expect(printed).toHaveLength(1);
      expect(printed[0].out).toContain("/admin/welcome");
      for (const s of servers) {
        const me = await fetch(`${s.base}/api/auth/me`, { headers: { authorization: `Bearer ${printed[0].key}` } });
        expect(me.status).toBe(200);
      }
      const db = await openDb(url);
      try {
        expect(await db.read.select({ id: clubsTable.id }).from(clubsTable)).toEqual([{ id: printed[0].clubId as string }]);
      } finally {
        await db.close();
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await dropDatabase(url);
    }
  });
});

describe("bun run start on a port already taken", () => {
  it("says so in one line and stops before anything is written: no database, no club, no key printed", async () => {
    const taken = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("someone else") });
    const empty = mkdtempSync(join(tmpdir(), "club-taken-"));
    try {
      const proc = Bun.spawn(["bun", "app/main.ts"], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(taken.port), HOST: "127.0.0.1", DATABASE_URL: join(empty, "club.db"), BASE_URL: "" },
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(await proc.exited).toBe(1);
      const err = (await new Response(proc.stderr).text()).trim();
      expect(err).toBe(`Cannot start: 127.0.0.1:${taken.port} is already in use (another server is running there?). Stop it, or set PORT to a free port.`);
      expect(await new Response(proc.stdout).text()).not.toContain("mk_live_");
      expect(existsSync(join(empty, "club.db"))).toBe(false);
    } finally {
      taken.stop(true);
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
