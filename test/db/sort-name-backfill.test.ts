// Members stored before `sort_name` existed (it came with migration 0007, default '') get their
// key when the database is next opened, so that the name sort and the PDF roster order them too.
import { afterAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { operatorCtx } from "../../lib/auth/operator";
import { initClub } from "../../lib/auth/init";
import { loadConfig } from "../../lib/config";
import { listMembers, newMemberRow } from "../../lib/members";
import { members } from "../../db/schema";
import { onPostgres } from "../databases";

const dir = mkdtempSync(join(tmpdir(), "club-sort-name-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Rows of an older SQLite file; a PostgreSQL database starts with the current schema.
it.skipIf(onPostgres)("openDb fills sort_name for rows that have none, and the name sort then uses it", async () => {
  const path = join(dir, "club.db");
  let db = await openDb(path);
  const club = await initClub(db, { clubName: "Club", email: "owner@example.org", locale: "fr", currency: "CHF" });
  const row = (first: string, last: string) => ({
    ...newMemberRow(club.club_id, {
      first_name: first,
      last_name: last,
      email: `${first}@example.org`,
      membership_start: "2026-01-01",
      membership_end: "2026-12-31",
      payment_status: "paid",
    }),
    sort_name: "",
  });
  await db.tx((t) => t.insert(members).values([row("Zoé", "Zürcher"), row("Łukasz", "Żółć"), row("Anna", "Čapek"), row("Bruno", "Dupont")]));
  db.close();

  db = await openDb(path);
  const keys = (await db.read.select({ last: members.last_name, key: members.sort_name }).from(members)).map((r) => [r.last, r.key]);
  expect(Object.fromEntries(keys)).toEqual({ Zürcher: "zurcher\u0001zoe", Żółć: "zolc\u0001lukasz", Čapek: "capek\u0001anna", Dupont: "dupont\u0001bruno" });
  const ctx = await operatorCtx(db, club.club_id, loadConfig({ DATABASE_URL: path, OUTBOX_DIR: join(dir, "outbox"), BASE_URL: "http://localhost" }));
  const list = await listMembers(ctx, { sort: "name", dir: "asc" } as never);
  expect(list.items.map((m: { last_name: string }) => m.last_name)).toEqual(["Čapek", "Dupont", "Żółć", "Zürcher"]);
  db.close();
});
