// Wallet pass updates: which changes queue one, which passes they mark, and how the update job
// fans out into deliveries through the wallet channels (a recording channel stands in for Apple
// and Google here; their own suites test the real ones).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { clubs, jobs, members } from "../../db/schema";
import { WALLET_CHANNELS, type WalletChannel } from "../../lib/cards/channels";
import { queuePassUpdate, WALLET_PASS_UPDATE } from "../../lib/passes";
import { enqueueJob, type JobKinds, PermanentFailure, runDueJobs, TemporaryFailure } from "../../lib/jobs";
import { JOB_KINDS } from "../../server/jobs";
import { setup, type TestEnv } from "../helpers";
import { memberRow, seedMember } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const jobsOf = async (kind: string) => (await env.db.read.select().from(jobs).where(eq(jobs.club_id, env.clubId))).filter((j) => j.kind === kind);
const clearJobs = () => env.db.tx((t) => t.delete(jobs));
// The real channels are swapped out for a recording one in each test, and put back after.
const realChannels = [...WALLET_CHANNELS];
const useChannels = (...channels: WalletChannel[]) => WALLET_CHANNELS.splice(0, WALLET_CHANNELS.length, ...channels);
beforeEach(() => useChannels());
afterEach(async () => {
  await clearJobs();
  useChannels(...realChannels);
});

/** A channel that records what it was asked to fan out, and queues one delivery job per member. */
function recordingChannel(fail = false) {
  const calls: (string[] | null)[] = [];
  const channel: WalletChannel = {
    name: "apple",
    configured: () => true,
    async fanOut(t, clubId, memberIds) {
      calls.push(memberIds);
      if (fail) throw new Error("channel down");
      for (const id of memberIds ?? ["all"]) await enqueueJob(t, { clubId, kind: "test_delivery", payload: { member_id: id } });
      return (memberIds ?? ["all"]).length;
    },
  };
  return { channel, calls };
}

describe("what queues a pass update", () => {
  it("a member transition that shows on the pass marks that member's pass and queues one update", async () => {
    const a = await seedMember(env);
    const b = await seedMember(env);
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${a.id}/actions/suspend`, { body: { reason: "unpaid" } });
    expect(res.status).toBe(200);
    const [job] = await jobsOf(WALLET_PASS_UPDATE);
    expect(job.payload).toMatchObject({ member_ids: [a.id], reason: "suspend" });
    expect((await memberRow(env, a.id)).pass_updated_at).toBeString();
    expect((await memberRow(env, b.id)).pass_updated_at).toBeNull();
  });

  it("a change of the card's appearance marks every pass of the club; a change off the card queues nothing", async () => {
    const a = await seedMember(env);
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { description: "Not on the card" } });
    expect(await jobsOf(WALLET_PASS_UPDATE)).toHaveLength(0);
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_welcome_message: "Welcome" } });
    expect(res.status).toBe(200);
    const [job] = await jobsOf(WALLET_PASS_UPDATE);
    expect(job.payload).toMatchObject({ member_ids: null, reason: "card_welcome_message" });
    expect((await memberRow(env, a.id)).pass_updated_at).toBe(job.payload.at as string);
    // The same value again changes nothing, so nothing is pushed.
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_welcome_message: "Welcome" } });
    expect(await jobsOf(WALLET_PASS_UPDATE)).toHaveLength(1);
  });

  it("exactly the club fields a card reads queue an update: name_order and country do, date_format and unread card_* fields do not", async () => {
    const put = async (body: Record<string, unknown>) => {
      await clearJobs();
      expect((await env.call("PUT", `/api/clubs/${env.clubId}`, { body })).status).toBe(200);
      return (await jobsOf(WALLET_PASS_UPDATE)).map((j) => j.payload.reason);
    };
    // The holder's name turns around on every card; the country changes the date's text and Google's countryCode.
    expect(await put({ name_order: "last_first" })).toEqual(["name_order"]);
    expect(await put({ country: "CH" })).toEqual(["country"]);
    // Read by no card: nothing to push.
    expect(await put({ date_format: "dmy" })).toEqual([]);
    expect(await put({ card_theme: "dark", card_hide_branding: true })).toEqual([]);
    // Several at once: one update naming those on the card.
    expect(await put({ name_order: "first_last", card_theme: "light", card_barcode_format: "aztec" })).toEqual(["card_barcode_format,name_order"]);
  });

  it("an import that changes a member's name queues an update for that member only", async () => {
    const a = await seedMember(env, { email: "import-me@test.org" });
    const b = await seedMember(env, { email: "untouched@test.org" });
    const csv = "email,first_name,last_name\nimport-me@test.org,Renamed,Muster\nuntouched@test.org,Anna,Muster\n";
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/import?mode=update`, { rawBody: csv, headers: { "content-type": "text/csv" } });
    expect(res.status).toBe(200);
    const [job] = await jobsOf(WALLET_PASS_UPDATE);
    expect(job.payload.member_ids).toEqual([a.id]);
    // The pass's Last-Modified is the update's time; the unchanged member's pass is not marked.
    expect((await memberRow(env, a.id)).pass_updated_at).toBe(job.payload.at as string);
    expect((await memberRow(env, b.id)).pass_updated_at).toBeNull();
  });
});

describe("the update job", () => {
  it("fans out through each channel, completes itself and stamps last_wallet_push_at", async () => {
    const { channel, calls } = recordingChannel();
    useChannels(channel);
    const a = await seedMember(env);
    await env.call("POST", `/api/clubs/${env.clubId}/members/${a.id}/actions/extend`, { body: { extend_months: 2 } });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    expect(calls).toEqual([[a.id]]);
    const [update] = await jobsOf(WALLET_PASS_UPDATE);
    expect(update.status).toBe("done");
    expect(update.attempts).toBe(1);
    expect(update.outcome).toBe("deliveries queued (apple: 1)");
    expect(await jobsOf("test_delivery")).toHaveLength(1);
    const [club] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect(club.last_wallet_push_at).toBeString();
    // Run again: the fan-out does not repeat.
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + 3600_000) });
    expect(calls).toHaveLength(1);
  });

  it("one fan-out takes over the club's other pending updates: one delivery per member, the others done as merged", async () => {
    const { channel, calls } = recordingChannel();
    useChannels(channel);
    const [a, b, c] = [await seedMember(env), await seedMember(env), await seedMember(env)];
    for (const m of [a, b, a, c]) await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/extend`, { body: { extend_months: 1 } });
    const other = await env.otherClub();
    await env.db.tx((t) => enqueueJob(t, { clubId: other.club_id, kind: WALLET_PASS_UPDATE, payload: { member_ids: ["x"], reason: "test" } }));
    const updates = await jobsOf(WALLET_PASS_UPDATE);
    expect(updates).toHaveLength(4);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    // The first fan-out sent the three members once; the three later updates ran no fan-out of their own.
    expect(calls.filter((ids) => ids?.includes(a.id))).toHaveLength(1);
    expect(new Set(calls.find((ids) => ids?.includes(a.id)))).toEqual(new Set([a.id, b.id, c.id]));
    expect((await jobsOf("test_delivery")).map((j) => j.payload.member_id).sort()).toEqual([a.id, b.id, c.id].sort());
    const after = await jobsOf(WALLET_PASS_UPDATE);
    expect(after.every((j) => j.status === "done")).toBe(true);
    const first = after.find((j) => !j.outcome?.startsWith("merged"));
    expect(first?.outcome).toContain("3 later updates merged");
    expect(after.filter((j) => j.outcome === `merged into ${first?.id}`)).toHaveLength(3);
    // Another club's update is its own.
    const theirs = (await env.db.read.select().from(jobs).where(eq(jobs.club_id, other.club_id))).filter((j) => j.kind === WALLET_PASS_UPDATE);
    expect(theirs.map((j) => j.outcome)).toEqual(["deliveries queued (apple: 1)"]);
    expect(calls).toContainEqual(["x"]);
  });

  it("an update of 40,000 members (an import) is marked and fanned out in slices of 10,000 ids (PostgreSQL takes 65,535 parameters a statement)", async () => {
    const seen: number[] = [];
    const channel: WalletChannel = {
      ...recordingChannel().channel,
      // Like the real channels: the member ids go into one query.
      async fanOut(t, clubId, memberIds) {
        const rows = await t
          .select({ id: members.id })
          .from(members)
          .where(and(eq(members.club_id, clubId), inArray(members.id, memberIds ?? [])));
        seen.push(memberIds?.length ?? -1);
        return rows.length;
      },
    };
    useChannels(channel);
    const a = await seedMember(env);
    const ids = [a.id, ...Array.from({ length: 39_999 }, () => crypto.randomUUID())];
    await env.db.tx((t) => queuePassUpdate(t, env.clubId, ids, "import_update"));
    expect((await memberRow(env, a.id)).pass_updated_at).toBeString();
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    const [job] = await jobsOf(WALLET_PASS_UPDATE);
    expect(job).toMatchObject({ status: "done", outcome: "deliveries queued (apple: 1)" });
    expect(seen).toEqual([10_000, 10_000, 10_000, 10_000]);
  });

  it("an update for the whole club absorbs the updates of single members into one fan-out to all", async () => {
    const { channel, calls } = recordingChannel();
    useChannels(channel);
    const a = await seedMember(env);
    await env.call("POST", `/api/clubs/${env.clubId}/members/${a.id}/actions/extend`, { body: { extend_months: 1 } });
    expect((await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_label_color: "#123456" } })).status).toBe(200);
    expect(await jobsOf(WALLET_PASS_UPDATE)).toHaveLength(2);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    expect(calls).toEqual([null]);
  });

  it("the outcome names the configured wallets only, and says so when none is", async () => {
    useChannels(...realChannels);
    const a = await seedMember(env);
    await env.call("POST", `/api/clubs/${env.clubId}/members/${a.id}/actions/extend`, { body: { extend_months: 1 } });
    expect(env.config.wallets).toEqual({ apple: null, google: null });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    expect((await jobsOf(WALLET_PASS_UPDATE))[0].outcome).toBe("no wallet configured");

    // A configured wallet (the recording one) is named; an unconfigured one is not.
    const { channel } = recordingChannel();
    const off: WalletChannel = { ...recordingChannel().channel, name: "google", configured: () => false };
    useChannels(channel, off);
    await env.call("POST", `/api/clubs/${env.clubId}/members/${a.id}/actions/extend`, { body: { extend_months: 1 } });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    const latest = (await jobsOf(WALLET_PASS_UPDATE)).find((j) => j.outcome !== "no wallet configured");
    expect(latest?.outcome).toBe("deliveries queued (apple: 1)");
  });

  it("a failing fan-out queues no delivery and is retried later", async () => {
    const { channel, calls } = recordingChannel(true);
    useChannels(channel);
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_welcome_message: "Hello" } });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    const [update] = await jobsOf(WALLET_PASS_UPDATE);
    expect(update.status).toBe("pending");
    expect(update.attempts).toBe(1);
    expect(update.last_error).toContain("channel down");
    expect(await jobsOf("test_delivery")).toHaveLength(0);
    expect(calls).toEqual([null]);
  });

  it("manual create answers the configured wallets' addresses, and the web card offers only those", async () => {
    // Apple configured (its files are read only to sign a pass), Google not.
    const apple = {
      APPLE_PASS_TYPE_ID: "pass.test",
      APPLE_TEAM_ID: "TEAM",
      APPLE_PASS_CERT: "/nonexistent",
      APPLE_PASS_KEY: "/nonexistent",
      APPLE_WWDR_CERT: "/nonexistent",
    };
    const withApple = await setup(apple);
    try {
      const res = await withApple.call("POST", `/api/clubs/${withApple.clubId}/members/manual`, {
        body: { first_name: "Wally", last_name: "Wallet", email: "wally@test.org", membership_end: "2031-01-01" },
      });
      expect(res.status).toBe(201);
      const serial = res.body.pass_serial_number;
      expect(res.body.wallet_urls).toEqual({ apple: `http://localhost/c/${serial}/pass.pkpass`, google: null, web: `http://localhost/c/${serial}` });
      const page = await withApple.call("GET", `/c/${serial}`, { key: null });
      expect(page.text).toContain(`href="http://localhost/c/${serial}/pass.pkpass">Ajouter à Apple Wallet</a>`);
      expect(page.text).not.toContain("Google Wallet");
    } finally {
      await withApple.close();
    }
    const plain = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Paula", last_name: "Plain", email: "paula@test.org", membership_end: "2031-01-01" },
    });
    expect(plain.body.wallet_urls).toMatchObject({ apple: null, google: null });
    expect((await env.call("GET", `/c/${plain.body.pass_serial_number}`, { key: null })).text).not.toContain("Apple Wallet");
  });
});

describe("job outcomes", () => {
  let mode: "temporary" | "permanent" | "ok" = "ok";
  const kinds: JobKinds = {
    ...JOB_KINDS,
    outcome_probe: {
      async run() {
        if (mode === "temporary") throw new TemporaryFailure("HTTP 503 busy");
        if (mode === "permanent") throw new PermanentFailure("HTTP 400 bad object");
        return "HTTP 200";
      },
    },
  };
  const probe = async () => {
    await env.db.tx((t) => enqueueJob(t, { clubId: env.clubId, kind: "outcome_probe", payload: {} }));
  };

  it("keeps the far end's answer, retries a temporary failure with back-off and gives up at once on a permanent one", async () => {
    mode = "temporary";
    await probe();
    const start = new Date();
    await runDueJobs(env.db, { kinds, config: env.config, now: start });
    let [job] = await jobsOf("outcome_probe");
    expect(job).toMatchObject({ status: "pending", attempts: 1, outcome: "HTTP 503 busy" });
    expect(Date.parse(job.run_after) - start.getTime()).toBe(2000);
    // Not due yet: nothing runs.
    expect(await runDueJobs(env.db, { kinds, config: env.config, now: new Date(start.getTime() + 1000) })).toBe(0);
    mode = "ok";
    await runDueJobs(env.db, { kinds, config: env.config, now: new Date(start.getTime() + 2000) });
    [job] = await jobsOf("outcome_probe");
    expect(job).toMatchObject({ status: "done", attempts: 2, outcome: "HTTP 200", last_error: null });

    await clearJobs();
    mode = "permanent";
    await probe();
    await runDueJobs(env.db, { kinds, config: env.config });
    [job] = await jobsOf("outcome_probe");
    expect(job).toMatchObject({ status: "failed", attempts: 1, outcome: "HTTP 400 bad object" });
    expect(job.finished_at).toBeString();
  });
});
