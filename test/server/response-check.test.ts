// Answers are checked against their response schema only with CHECK_RESPONSES (the tests), and
// strictly: an answer the schema would change fails, so production, which sends the handler's
// value unchecked, answers exactly what the tests saw.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { z } from "zod";
import { loadConfig } from "../../lib/config";
import { createApp } from "../../app";
import { unchanged } from "../../server/loader";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";

const Item = z.object({ id: z.string(), active: z.boolean().default(false) });
const check = (value: unknown) => unchanged(Item)["~standard"].validate(value) as { value?: unknown; issues?: unknown[] };

describe("the response check (CHECK_RESPONSES)", () => {
  it("passes an answer its schema leaves as it is", () => {
    expect(check({ id: "a", active: true })).toEqual({ value: { id: "a", active: true } });
  });

  it("fails an answer with a field its schema would strip, or one it would fill in", () => {
    expect(check({ id: "a", active: true, search_text: "secret" }).issues).toHaveLength(1);
    expect(check({ id: "a" }).issues).toHaveLength(1);
  });

  it("fails an answer that does not match", () => {
    expect(check({ id: 1, active: true }).issues?.length).toBeGreaterThan(0);
  });

  it("is off unless set, and refuses a value that is not true or false", () => {
    expect(loadConfig({}).checkResponses).toBe(false);
    expect(loadConfig({ CHECK_RESPONSES: "true" }).checkResponses).toBe(true);
    expect(() => loadConfig({ CHECK_RESPONSES: "yes" })).toThrow(/CHECK_RESPONSES must be true or false/);
  });
});

describe("an app without the check (production)", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await setup();
    await seedMember(env, { custom_fields: { licence: "A-1" } });
    await seedMember(env, { payment_status: "pending" });
  });
  afterAll(() => env.close());

  it("answers the same bodies as the app that checks them", async () => {
    const production = await createApp(env.db, { ...env.config, checkResponses: false });
    // A search's page, a large answer sent as one chunk (lib/reply `largeAnswer`), as a kept page (a shared one) is.
    const list = `/api/clubs/${env.clubId}/members`;
    for (const path of [list, `${list}?sort=name&status=active`, `${list}?search=MUSTER`, `${list}?search=nobody`, "/api/auth/me"]) {
      const ask = (app: typeof production) => app.handle(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${env.key}` } }));
      const [checked, unchecked] = [await ask(env.app), await ask(production)];
      expect(unchecked.status).toBe(200);
      expect(await unchecked.json()).toEqual(await checked.json());
    }
    await production.audit.drain();
  });

  it("sends a search's page, handed to the socket as text, as the same UTF-8 JSON over HTTP", async () => {
    // Not through app.handle: the text becomes bytes where Bun writes the answer out.
    await seedMember(env, { first_name: "Łukasz", last_name: "Żółć" });
    const production = await createApp(env.db, { ...env.config, checkResponses: false });
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => production.handle(request) });
    try {
      const path = `/api/clubs/${env.clubId}/members?search=zolc`;
      const headers = { authorization: `Bearer ${env.key}` };
      const sent = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers });
      expect(sent.status).toBe(200);
      expect(sent.headers.get("content-type")).toBe("application/json;charset=utf-8");
      const bytes = new Uint8Array(await sent.arrayBuffer());
      const checked = await (await env.app.handle(new Request(`http://localhost${path}`, { headers }))).json();
      expect(checked.items.map((i: { last_name: string }) => i.last_name)).toEqual(["Żółć"]);
      expect(bytes).toEqual(new TextEncoder().encode(JSON.stringify(checked)));
    } finally {
      server.stop(true);
      await production.audit.drain();
    }
  });
});
