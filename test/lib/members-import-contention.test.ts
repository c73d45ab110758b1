// An import must not stop the club (issue 18, item 1): it writes in short transactions, so other
// requests go between its batches (shown by order, not time: the speed is the reliability
// suite's `contention.rel.ts`), and it stays all or nothing: an error that appears half-way, an
// exception, or a crash of its process (kill -9) leaves no member of it, while a change someone
// else made meanwhile to a member it wrote is kept.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { and, eq, getTableColumns, getTableName, inArray, is, like, Table } from "drizzle-orm";
import * as schema from "../../db/schema";
import { appleRegistrations, memberHistory, memberImports, memberImportUndo, members, payments } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { importMembers } from "../../lib/members/import";
import { NAMING, recoverImports, whenOthersWait } from "../../lib/members/import-journal";
import { setup, type TestEnv } from "../helpers";
import { onPostgres } from "../databases";
import { deadImport, importedMember, withEndpoint } from "../members-fixtures";

let env: TestEnv;
let ctx: Ctx;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000" });
  ctx = await operatorCtx(env.db, env.clubId, env.config);
  // As the server says while requests are in hand: short slices, so that several make an import.
  whenOthersWait(() => true);
});
afterAll(() => {
  whenOthersWait(null);
  env.close();
});

const csv = (tag: string, n: number) =>
  `first name,last name,email,membership end\n${Array.from({ length: n }, (_, i) => `Anna,Nom${i},${tag}-${i}@test.org,2030-12-31`).join("\n")}\n`;

const emailsLike = async (pattern: string) =>
  (
    await env.db.read
      .select({ email: members.email })
      .from(members)
      .where(and(eq(members.club_id, env.clubId), like(members.email, pattern)))
  ).length;

describe("during an import", () => {
  it("another club's requests, reads and writes, are answered before the import finishes", async () => {
    const other = await env.otherClub();
    let importFinished = false;
    const importing = importMembers(ctx, { csv: csv("long", 3000) }).then((r) => {
      importFinished = true;
      return r;
    });
    const me = await env.call("GET", "/api/auth/me", { key: other.api_key });
    const created = await env.call("POST", `/api/clubs/${other.club_id}/members/manual`, {
      key: other.api_key,
      body: { first_name: "Other", last_name: "Club", email: "other@test.org", membership_end: "2030-01-01" },
    });
    const answeredFirst = !importFinished;
    expect(me.status).toBe(200);
    expect(created.status).toBe(201);
    expect(answeredFirst).toBe(true);
    expect((await importing).created).toBe(3000);
  });

  it("a second import of the same club in this process waits for the first, then runs", async () => {
    const [a, b] = await Promise.all([importMembers(ctx, { csv: csv("twin-a", 600) }), importMembers(ctx, { csv: csv("twin-b", 600) })]);
    expect([a.created, b.created]).toEqual([600, 600]);
    const locks = await env.db.read.select().from(memberImports).where(eq(memberImports.status, "running"));
    expect(locks).toEqual([]);
    expect(await env.db.read.select().from(memberImportUndo)).toEqual([]);
  });
});

describe("all or nothing across short transactions", () => {
  // Others write synchronously between two batches, on SQLite's one writer connection.
  it.skipIf(onPostgres)("an error that appears half-way undoes the batches written, and keeps a change made meanwhile", async () => {
    await importMembers(ctx, { csv: csv("undo", 2000) });
    env.db.raw.run("UPDATE members SET membership_end = '2032-12-31' WHERE email = 'undo-1999@test.org'");
    const before = await env.db.read.select().from(members).where(like(members.email, "undo-%"));
    const historyBefore = (await env.db.read.select({ id: memberHistory.id }).from(memberHistory)).length;
    // Update mode: every line renames its member; the last one, line 2001, also gives a new start only.
    const lines = before
      .map((m) => ({ i: Number(m.email.slice(5, -9)), email: m.email }))
      .sort((a, b) => a.i - b.i)
      .map(({ i, email }) => `${email},Renamed${i},${i === 1999 ? "2031-06-01" : ""}`);
    const file = `email,first name,membership start\n${lines.join("\n")}\n`;
    let changed = false;
    let told: { id: string; first_name: string }[] = [];
    const result = await withEndpoint(env, ["member.updated"], async (sent) => {
      const imported = await importMembers(ctx, {
        csv: file,
        mode: "update",
        onProgress: (done) => {
          // After the first transaction of the writing (each holds the writer ~25 ms: far fewer than 2,000 lines).
          if (changed || done === 0 || done === 2000) return;
          changed = true;
          // Between two batches, others write (synchronously, on the writer, outside the import):
          // the member of line 2 is renamed by someone else; the last line's member gets an end before the start the file gives.
          env.db.raw.run("UPDATE members SET first_name = 'Later', updated_at = ? WHERE email = 'undo-1@test.org'", [new Date().toISOString()]);
          env.db.raw.run("UPDATE members SET membership_end = '2031-01-01' WHERE email = 'undo-1999@test.org'");
        },
      });
      told = (await sent()).map((d) => JSON.parse(d.payload).data);
      return imported;
    });
    // The webhooks heard each rename written, then the name given back.
    const [first] = before.filter((m) => m.email === "undo-0@test.org");
    expect(told.filter((d) => d.id === first.id).map((d) => d.first_name)).toEqual(["Renamed0", first.first_name]);
    expect(result.written).toBe(false);
    expect(result.updated).toBe(0);
    expect(changed).toBe(true);
    expect(result.errors.map((e) => e.line)).toEqual([2001]);
    const after = new Map((await env.db.read.select().from(members).where(like(members.email, "undo-%"))).map((m) => [m.email, m]));
    for (const m of before) {
      const now = after.get(m.email);
      if (m.email === "undo-1@test.org") expect(now?.first_name).toBe("Later");
      else expect(now?.first_name).toBe(m.first_name);
    }
    // The import's history rows are gone, but that of the member changed since: it keeps what the import wrote with it.
    expect((await env.db.read.select({ id: memberHistory.id }).from(memberHistory)).length).toBe(historyBefore + 1);
    expect(await env.db.read.select({ id: memberImports.id }).from(memberImports).where(eq(memberImports.status, "undone"))).toHaveLength(1);
    expect(await env.db.read.select().from(memberImportUndo)).toEqual([]);
  });

  it("an import whose process is killed half-way (kill -9) is undone at the next start", async () => {
    const script = join(env.dir, "crash.ts");
    const root = join(import.meta.dir, "..", "..");
    writeFileSync(
      script,
      `import { openDb } from "${root}/db";
import { operatorCtx } from "${root}/lib/auth/operator";
import { loadConfig } from "${root}/lib/config";
import { importMembers } from "${root}/lib/members/import";
const config = loadConfig({ DATABASE_URL: process.argv[2], LOG_LEVEL: "silent" });
const db = await openDb(config.databaseUrl);
const ctx = await operatorCtx(db, process.argv[3], config);
const rows = Array.from({ length: 2000 }, (_, i) => "Kim,K" + i + ",crash-" + i + "@test.org,2030-12-31").join("\\n");
await importMembers(ctx, { csv: "first name,last name,email,membership end\\n" + rows + "\\n", onProgress: (done) => {
  if (done > 0) process.kill(process.pid, "SIGKILL");
} });
`,
    );
    await withEndpoint(env, ["member.created", "member.deleted"], async (sent) => {
      const child = Bun.spawn(["bun", script, env.config.databaseUrl, env.clubId], { stdout: "ignore", stderr: "pipe" });
      expect(await child.exited).not.toBe(0);
      expect(child.signalCode).toBe("SIGKILL");
      // What was committed before the kill is visible until the recovery.
      expect(await emailsLike("crash-%")).toBeGreaterThan(0);
      expect(await recoverImports(env.db)).toBe(1);
      expect(await emailsLike("crash-%")).toBe(0);
      // The webhooks were told of each member created: each is told gone.
      const told = async (type: string) =>
        (await sent())
          .filter((d) => d.type === type)
          .map((d) => JSON.parse(d.payload).data.id as string)
          .sort();
      expect((await told("member.created")).length).toBeGreaterThan(0);
      expect(await told("member.deleted")).toEqual(await told("member.created"));
    });
    expect(await env.db.read.select().from(memberImports).where(eq(memberImports.status, "running"))).toEqual([]);
    expect(await env.db.read.select().from(memberImportUndo)).toEqual([]);
    // Nothing left to undo: a second recovery finds nothing.
    expect(await recoverImports(env.db)).toBe(0);
  });

  it("an undo row of the earlier form (one member, no entries) left by a crash is still undone", async () => {
    await importMembers(ctx, { csv: csv("legacy", 2) });
    const [m] = await env.db.read.select().from(members).where(eq(members.email, "legacy-0@test.org"));
    // As an import of the earlier version wrote it: the member renamed, its history row, one undo row for it.
    const importId = crypto.randomUUID();
    const writtenAt = new Date().toISOString();
    const historyId = crypto.randomUUID();
    await env.db.tx(async (t) => {
      await t.insert(memberImports).values({ id: importId, club_id: env.clubId, status: "running", host: hostname(), pid: 2 ** 22 + 1, started_at: writtenAt });
      await t.update(members).set({ first_name: "Renamed", updated_at: writtenAt }).where(eq(members.id, m.id));
      await t.insert(memberHistory).values({ id: historyId, club_id: env.clubId, member_id: m.id, action: "import_update", created_at: writtenAt });
      await t.insert(memberImportUndo).values({ import_id: importId, member_id: m.id, history_id: historyId, before: { ...m }, written_at: writtenAt });
    });
    expect(await recoverImports(env.db, env.clubId)).toBe(1);
    const [after] = await env.db.read.select().from(members).where(eq(members.id, m.id));
    expect(after.first_name).toBe(m.first_name);
    expect(await env.db.read.select().from(memberHistory).where(eq(memberHistory.id, historyId))).toEqual([]);
    expect(await env.db.read.select().from(memberImportUndo)).toEqual([]);
  });

  it("an import of a process on another machine: its club is locked while its lease holds (409 IMPORT_RUNNING), undone once it has lapsed", async () => {
    await importMembers(ctx, { csv: csv("remote", 2) });
    const [m] = await env.db.read.select().from(members).where(eq(members.email, "remote-0@test.org"));
    const importId = crypto.randomUUID();
    const historyId = crypto.randomUUID();
    const writtenAt = new Date().toISOString();
    // As a process on another machine leaves it mid-way: a member renamed, its undo row, a lease it renews.
    await env.db.tx(async (t) => {
      await t.insert(memberImports).values({
        id: importId,
        club_id: env.clubId,
        status: "running",
        host: "another-machine",
        pid: process.pid,
        started_at: writtenAt,
        lease_until: new Date(Date.now() + 60_000).toISOString(),
      });
      await t.update(members).set({ first_name: "Remote", updated_at: writtenAt }).where(eq(members.id, m.id));
      await t.insert(memberHistory).values({ id: historyId, club_id: env.clubId, member_id: m.id, action: "import_update", created_at: writtenAt });
      await t.insert(memberImportUndo).values({ import_id: importId, member_id: m.id, history_id: historyId, before: { ...m }, written_at: writtenAt });
    });
    // Alive (its lease holds): nothing undone, and another import of the club waits its turn.
    expect(await recoverImports(env.db, env.clubId)).toBe(0);
    const refused = await env.call("POST", `/api/clubs/${env.clubId}/members/import`, {
      rawBody: csv("meanwhile", 1),
      headers: { "content-type": "text/csv" },
    });
    expect([refused.status, refused.body.code]).toEqual([409, "IMPORT_RUNNING"]);
    expect((await env.db.read.select().from(members).where(eq(members.id, m.id)))[0].first_name).toBe("Remote");
    // It stopped renewing (its machine died): once the lease has lapsed, the next import undoes it and runs.
    await env.db.tx((t) =>
      t
        .update(memberImports)
        .set({ lease_until: new Date(Date.now() - 1).toISOString() })
        .where(eq(memberImports.id, importId)),
    );
    const next = await env.call("POST", `/api/clubs/${env.clubId}/members/import`, { rawBody: csv("after", 1), headers: { "content-type": "text/csv" } });
    expect(next.status).toBe(200);
    expect((await env.db.read.select().from(members).where(eq(members.id, m.id)))[0].first_name).toBe(m.first_name);
    const [undone] = await env.db.read.select().from(memberImports).where(eq(memberImports.id, importId));
    expect(undone.status).toBe("undone");
  });

  it("a member the import created that something names since (a wallet, a payment) stays, with its history; the others go", async () => {
    await importMembers(ctx, { csv: csv("named", 3) });
    const created = await Promise.all([0, 1, 2].map((i) => importedMember(env, `named-${i}@test.org`)));
    const [wallet, paid, alone] = created;
    // As a process that died mid-way leaves it: the three members its undo row says it created;
    // since, a wallet registered the first one's card (a foreign key) and the second one paid.
    const importId = await deadImport(env, created, async (t, now) => {
      await t.insert(appleRegistrations).values({
        id: crypto.randomUUID(),
        club_id: env.clubId,
        member_id: wallet.m.id,
        device_library_id: "device-1",
        pass_type_id: "pass.org.test",
        push_token: "token",
        created_at: now,
        updated_at: now,
      });
      await t.insert(payments).values({
        id: crypto.randomUUID(),
        club_id: env.clubId,
        member_id: paid.m.id,
        kind: "membership",
        amount_cents: 5000,
        currency: "CHF",
        method: "cash",
        source: "manual",
        paid_at: now,
        created_at: now,
      });
    });
    expect(await recoverImports(env.db, env.clubId)).toBe(1);
    const left = await env.db.read.select({ email: members.email }).from(members).where(like(members.email, "named-%"));
    expect(left.map((m) => m.email).sort()).toEqual(["named-0@test.org", "named-1@test.org"]);
    const history = await env.db.read
      .select({ id: memberHistory.id })
      .from(memberHistory)
      .where(
        inArray(
          memberHistory.id,
          created.map((c) => c.historyId),
        ),
      );
    expect(history.map((h) => h.id).sort()).toEqual([wallet.historyId, paid.historyId].sort());
    expect(alone.m.email).toBe("named-2@test.org");
    const [done] = await env.db.read.select().from(memberImports).where(eq(memberImports.id, importId));
    expect(done.status).toBe("undone");
    expect(await env.db.read.select().from(memberImportUndo)).toEqual([]);
  });

  it("every column of the schema that names a member is one the undo asks about", () => {
    // The import's own rows (its history and its journal) are what the undo removes, not references.
    const own = new Set<string>([getTableName(memberHistory), getTableName(memberImportUndo)]);
    const naming = (Object.values(schema) as unknown[])
      .filter((t): t is Table => is(t, Table) && !own.has(getTableName(t)))
      .flatMap((t) =>
        Object.values(getTableColumns(t))
          .filter((c) => c.name === "member_id" || c.name.endsWith("_member_id"))
          .map((c) => `${getTableName(t)}.${c.name}`),
      );
    expect(naming.length).toBeGreaterThanOrEqual(9);
    expect(NAMING.map((c) => `${getTableName(c.table)}.${c.name}`).sort()).toEqual(naming.sort());
  });
});
