// The member search through its index (issue 26 item 6): the list's search finds members as they
// are now, after a create, a rename, an import and an erasure, accent- and case-insensitively, on
// both engines; on SQLite the FTS5 table stays in step with the members (its own integrity check)
// and a search of 3 characters or more reads it rather than every member.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";
import { importFile } from "../members-fixtures";

describe("member search through its index", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => env?.close());

  const found = async (search: string) => {
    const res = await env.call("GET", `/api/clubs/${env.clubId}/members?search=${encodeURIComponent(search)}`);
    expect(res.status).toBe(200);
    return (res.body.items as { email: string }[]).map((m) => m.email).sort();
  };
  const create = async (first: string, last: string, email: string) => {
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: first, last_name: last, email, membership_end: "2031-01-01" },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  it("finds members as they are after a create, a rename, an import and an erasure", async () => {
    const zoe = await create("Zoé", "Müller", "zoe@example.org");
    await create("Léon", "Mullerson", "leon@example.org");
    expect(await found("MULLER")).toEqual(["leon@example.org", "zoe@example.org"]);
    expect(await found("zoe mul")).toEqual(["zoe@example.org"]);
    // Two characters: no trigram, the scan answers the same way.
    expect(await found("zo")).toEqual(["zoe@example.org"]);

    const renamed = await env.call("PATCH", `/api/clubs/${env.clubId}/members/${zoe}`, { body: { last_name: "Sommer" } });
    expect(renamed.status).toBe(200);
    expect(await found("muller")).toEqual(["leon@example.org"]);
    expect(await found("sommer")).toEqual(["zoe@example.org"]);

    const imported = await importFile(env, "first_name,last_name,email,membership_end\nAnouk,Quartz,anouk@example.org,2031-01-01\n");
    expect(imported.status).toBe(200);
    expect(await found("quartz")).toEqual(["anouk@example.org"]);

    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${zoe}`)).status).toBe(204);
    expect(await found("sommer")).toEqual([]);
    // A quote in the term is text, not FTS5 syntax.
    expect(await found('mul"ler')).toEqual([]);
  });

  it.skipIf(onPostgres)("on SQLite the FTS5 table agrees with the members, and a search of 3 characters reads it", async () => {
    await env.db.query("INSERT INTO members_search(members_search) VALUES ('integrity-check')");
    const [{ n }] = await env.db.query<{ n: number }>("SELECT count(*) AS n FROM members_search WHERE members_search MATCH '\"leon\"'");
    expect(n).toBe(1);
    // The list reads the index: emptied, a search of 3 characters finds nobody, one of 2 (a scan) still finds.
    await env.db.query("INSERT INTO members_search(members_search) VALUES ('delete-all')");
    expect(await found("leon")).toEqual([]);
    expect(await found("le")).toEqual(["anouk@example.org", "leon@example.org"]);
    await env.db.query("INSERT INTO members_search(members_search) VALUES ('rebuild')");
    // Another term: the count of "leon" is kept while the members stand (the index was rebuilt behind their back).
    expect(await found("eon")).toEqual(["leon@example.org"]);
  });
});
