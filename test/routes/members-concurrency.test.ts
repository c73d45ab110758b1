// Concurrent transitions of one member: each answer shows the state its own transition produced
// (transactions that commit together must not answer with each other's result).
import { afterAll, beforeAll, expect, it } from "bun:test";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

it("40 simultaneous suspends and reactivations: every 200 shows its own action's result", async () => {
  const m = await seedMember(env);
  const actions = Array.from({ length: 40 }, (_, i) => (i % 2 ? "reactivate" : "suspend"));
  const answers = await Promise.all(actions.map((a) => env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/${a}`, { body: {} })));
  let ok = 0;
  for (const [i, res] of answers.entries()) {
    expect([200, 409]).toContain(res.status);
    if (res.status !== 200) continue;
    ok++;
    expect({ action: actions[i], status: res.body.status }).toEqual({ action: actions[i], status: actions[i] === "suspend" ? "suspended" : "active" });
  }
  expect(ok).toBeGreaterThan(1);
});
