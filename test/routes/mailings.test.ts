// Mailings (issue 29, DESIGN.md section 22) over HTTP, read back from the mails a real local SMTP
// server received: the audience, merge fields, Markdown with raw HTML off, the club's look with a
// text part, List-Unsubscribe (RFC 8058) on every mail, each recipient once, counts that add up,
// one SMTP connection for a run's mails, bounces (5xx) skipped by later mailings until the email changes, 4xx tried again, the one-click
// unsubscribe without key or session, and the refusals (409, 413, 422).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { openDb } from "../../db";
import { mailingRecipients, mailings, members } from "../../db/schema";
import { enqueueJob, runDueJobs } from "../../lib/jobs";
import { MAILING_JOBS, MAILING_SEND, RECIPIENT_CLAIM_MS } from "../../lib/mailings/send";
import { insertTier } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { memberRow, pageTokenOf, seedMember, withEndpoint } from "../members-fixtures";
import { bodyOf, header, parts, type Received, startSmtp, type TestSmtp, textOf } from "../smtp";

let env: TestEnv;
let smtp: TestSmtp;
let inbox: Received[];
beforeAll(async () => {
  smtp = await startSmtp();
  inbox = smtp.inbox;
  // A cap above 1 MB, so that the mailing's own limit (413) is what answers a big body.
  env = await setup({ SMTP_URL: smtp.url, MAX_BODY_BYTES: String(3 * 1024 * 1024), MAIL_RATE_PER_MINUTE: "6000" });
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});

const base = () => `/api/clubs/${env.clubId}/mailings`;
const create = (body: unknown, key?: string) => env.call("POST", base(), { body, key });
const action = (id: string, name: string, body: unknown = {}) => env.call("POST", `${base()}/${id}/actions/${name}`, { body });
const recipientsOf = (id: string) => env.db.read.select().from(mailingRecipients).where(eq(mailingRecipients.mailing_id, id));
const mailingOf = async (id: string) => (await env.db.read.select().from(mailings).where(eq(mailings.id, id)))[0];
const htmlOf = (raw: string) => {
  const part = parts(raw).find((p) => /text\/html/i.test(p.headers));
  return part ? bodyOf(part) : "";
};
const to = (address: string) => inbox.filter((m) => m.to.includes(address));

/** Runs the mailing jobs (as a server's worker would) until the mailing is no longer sending, moving the clock on. */
async function drain(id: string, opts: { db?: typeof env.db; from?: number } = {}) {
  let at = opts.from ?? Date.now();
  for (let i = 0; i < 200; i++) {
    await runDueJobs(opts.db ?? env.db, { kinds: MAILING_JOBS, config: env.config, now: new Date(at) });
    if ((await mailingOf(id)).status !== "sending") return;
    at += 60_000;
  }
  throw new Error("the mailing never finished");
}

/** A draft whose audience is exactly `memberIds`' tier (a fresh tier per test keeps tests apart). */
async function audienceOf(n: number, over: Parameters<typeof seedMember>[1] = {}) {
  const tier = await insertTier(env, { name: `T-${crypto.randomUUID().slice(0, 8)}` });
  const list = [];
  for (let i = 0; i < n; i++) list.push(await seedMember(env, { first_name: `P${i}`, last_name: `Nom${i}`, tier_id: tier.id, ...over }));
  return { tier, list };
}

describe("POST mailings (drafts) and their refusals", () => {
  it("creates a draft with zero counts; GET and the list show it", async () => {
    const res = await create({ subject: "Assemblée", body_markdown: "Bonjour {{first_name}}", audience: { statuses: ["active"] } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "draft",
      send_at: null,
      sent_at: null,
      counts: { recipients: 0, sent: 0, failed: 0, bounced: 0, skipped_opt_out: 0 },
    });
    expect((await mailingOf(res.body.id)).audience).toEqual({ statuses: ["active"] });
    expect((await env.call("GET", `${base()}/${res.body.id}`)).body.id).toBe(res.body.id);
    expect((await env.call("GET", base())).body.items.map((m: { id: string }) => m.id)).toContain(res.body.id);
  });

  it("422 for an empty subject or body, naming the field", async () => {
    for (const body of [
      { subject: " ", body_markdown: "x" },
      { subject: "x", body_markdown: "  \n" },
    ]) {
      const res = await create(body);
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["body", body.subject.trim() ? "body_markdown" : "subject"]);
    }
  });

  it("422 naming an unknown merge field, in the subject or the body", async () => {
    const res = await create({ subject: "Hi {{nickname}}", body_markdown: "Dear {{ first_name }}, {{iban}}" });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc.join("."))).toEqual(["body.subject", "body.body_markdown"]);
    expect(res.body.detail[0].msg).toContain("{{nickname}}");
    expect(res.body.detail[1].msg).toContain("{{iban}}");
  });

  it("422 naming another club's tier or event", async () => {
    const other = await env.otherClub();
    const tier = await insertTier(env, { clubId: other.club_id });
    const event = await env.call("POST", `/api/clubs/${other.club_id}/events`, {
      key: other.api_key,
      body: { title: "Ailleurs", starts_at: "2031-01-01T18:00:00Z" },
    });
    expect(event.status).toBe(201);
    const res = await create({ subject: "s", body_markdown: "b", audience: { tier_ids: [tier.id], event_id: event.body.id } });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: (string | number)[] }) => d.loc.join("."))).toEqual(["body.audience.tier_ids.0", "body.audience.event_id"]);
    expect(res.body.detail[0].msg).toContain(tier.id);
    expect(res.body.detail[1].msg).toContain(event.body.id);
    expect(await env.db.read.select().from(mailings).where(eq(mailings.subject, "s"))).toHaveLength(0);
  });

  it("413 for a body over 1 MB; PATCH too", async () => {
    const big = "a".repeat(1024 * 1024 + 1);
    expect((await create({ subject: "s", body_markdown: big })).status).toBe(413);
    const draft = await create({ subject: "s", body_markdown: "b" });
    expect((await env.call("PATCH", `${base()}/${draft.body.id}`, { body: { body_markdown: big } })).status).toBe(413);
    expect((await mailingOf(draft.body.id)).body_markdown).toBe("b");
  });

  it("needs communication:edit to create, communication:view to read", async () => {
    const viewer = await env.makeKey({ communication: "view" } as never);
    expect((await create({ subject: "s", body_markdown: "b" }, viewer)).status).toBe(403);
    expect((await env.call("GET", base(), { key: viewer })).status).toBe(200);
  });
});

describe("preview: Markdown with raw HTML off, merge fields filled, in the club's look", () => {
  it("never lets <script> or onerror= through as markup", async () => {
    const m = await seedMember(env, { first_name: "<b>Zoé</b>", last_name: "O'Neil" });
    const draft = await create({
      subject: "Salut {{first_name}}",
      body_markdown:
        '# Titre\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[clic](javascript:alert(3)) **{{first_name}}** {{last_name}}\n\n[Ma page]({{member_page_url}})',
    });
    const res = await env.call("GET", `${base()}/${draft.body.id}/preview?member_id=${m.id}`);
    expect(res.status).toBe(200);
    const { html, text, subject } = res.body;
    expect(subject).toBe("Salut <b>Zoé</b>");
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<h1>Titre</h1>");
    expect(html).toContain("<strong>&#60;b&#62;Zoé&#60;/b&#62;</strong> O&#39;Neil");
    expect(html).toContain(`href="http://localhost/m/preview"`);
    expect(text).toContain("**<b>Zoé</b>** O'Neil");
    expect(text).toContain("/u/preview");
    // A member of another club: 404.
    const other = await env.otherClub();
    const stranger = await seedMember(env, {}, other.club_id);
    expect((await env.call("GET", `${base()}/${draft.body.id}/preview?member_id=${stranger.id}`)).status).toBe(404);
  });
});

describe("sending", () => {
  it("mails each member of the audience once, with List-Unsubscribe, both parts, merge fields; skips and counts the opted-out; counts add up; mailing.sent", async () => {
    const { tier, list } = await audienceOf(4, { membership_end: "2031-05-31" });
    await env.db.tx((t) => t.update(members).set({ mailing_opt_out_at: new Date().toISOString() }).where(eq(members.id, list[3].id)));
    const outsider = await seedMember(env);
    const draft = await create({
      subject: "Saison {{last_name}}",
      body_markdown:
        "Bonjour **{{first_name}}**,\n\nvotre adhésion court jusqu'au {{membership_end}}. Carte : {{card_url}}\n\n[Votre page]({{member_page_url}})",
      audience: { tier_ids: [tier.id], statuses: ["active"] },
    });
    inbox.length = 0;
    await withEndpoint(env, ["mailing.sent"], async (sent) => {
      // No body at all: send now.
      const res = await env.call("POST", `${base()}/${draft.body.id}/actions/send`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "sending", counts: { recipients: 4, sent: 0, skipped_opt_out: 1 } });
      // Refused, in the club's words for the state found (not the API's `sending`).
      const again = await action(draft.body.id, "send");
      expect(again).toMatchObject({ status: 409, body: { code: "MAILING_NOT_SENDABLE" } });
      expect(again.body.detail).toContain("« en cours d'envoi »");
      expect((await action(draft.body.id, "cancel")).status).toBe(409);
      expect((await env.call("PATCH", `${base()}/${draft.body.id}`, { body: { subject: "x" } })).status).toBe(409);
      const connections = smtp.connections;
      await drain(draft.body.id);
      // One SMTP connection carries the run's mails, not one connection (and handshake) each.
      expect(smtp.connections - connections).toBe(1);
      const done = (await env.call("GET", `${base()}/${draft.body.id}`)).body;
      expect(done).toMatchObject({ status: "sent", counts: { recipients: 4, sent: 3, failed: 0, bounced: 0, skipped_opt_out: 1 } });
      expect(done.sent_at).toBeString();
      const c = done.counts;
      expect(c.recipients).toBe(c.sent + c.failed + c.bounced + c.skipped_opt_out);
      const hooks = await sent();
      expect(hooks.map((h) => h.type)).toEqual(["mailing.sent"]);
      expect(JSON.parse(hooks[0].payload).data).toMatchObject({ id: draft.body.id, status: "sent", counts: { sent: 3 } });
    });
    expect(inbox).toHaveLength(3);
    expect(to(outsider.email)).toHaveLength(0);
    expect(to(list[3].email)).toHaveLength(0);
    for (const m of list.slice(0, 3)) {
      const [mail] = to(m.email);
      expect(header(mail.raw, "Subject")).toBe(`Saison ${m.last_name}`);
      const unsubscribe = header(mail.raw, "List-Unsubscribe");
      expect(unsubscribe).toMatch(/^<http:\/\/localhost\/u\/[A-Za-z0-9]{32}>, <mailto:[^>]+\?subject=unsubscribe>$/);
      expect(header(mail.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      const html = htmlOf(mail.raw);
      const text = textOf(mail.raw);
      expect(html).toContain(`<strong>${m.first_name}</strong>`);
      expect(html).toContain("31 mai 2031");
      expect(html).toContain(`http://localhost/c/${m.pass_serial_number}`);
      expect(html).toContain(unsubscribe.slice(1, unsubscribe.indexOf(">")));
      expect(text).toContain(`**${m.first_name}**`);
      expect(text).toContain(unsubscribe.slice(1, unsubscribe.indexOf(">")));
      // Their page's link is a new, working one (the old link ends, as with a reminder).
      const page = html.match(/href="http:\/\/localhost\/m\/([A-Za-z0-9]+)"/)?.[1] as string;
      expect((await env.call("GET", `/api/public/manage/${page}`, { key: null })).status).toBe(200);
    }
    const rows = await recipientsOf(draft.body.id);
    expect(rows.map((r) => r.state).sort()).toEqual(["sent", "sent", "sent", "skipped_opt_out"]);
    const listed = await env.call("GET", `${base()}/${draft.body.id}/recipients`);
    expect(listed.body.total).toBe(4);
    expect(listed.body.items.find((r: { member_id: string }) => r.member_id === list[3].id)).toMatchObject({ state: "skipped_opt_out", first_name: "P3" });
  });

  it("takes an audience of 263 whole, each member once with a token of their own, through statements of 200, 50, 10 and 1 rows", async () => {
    const { tier, list } = await audienceOf(263);
    const saidNo = [list[0], list[201], list[262]];
    await env.db.tx((t) =>
      t
        .update(members)
        .set({ mailing_opt_out_at: new Date().toISOString() })
        .where(
          inArray(
            members.id,
            saidNo.map((m) => m.id),
          ),
        ),
    );
    const draft = await create({ subject: "Assemblée", body_markdown: "Bonjour {{first_name}}", audience: { tier_ids: [tier.id] } });
    const res = await action(draft.body.id, "send");
    expect(res.status).toBe(200);
    expect(res.body.counts).toMatchObject({ recipients: 263, skipped_opt_out: 3, sent: 0 });
    const rows = await recipientsOf(draft.body.id);
    expect(rows).toHaveLength(263);
    expect(new Set(rows.map((r) => r.member_id))).toEqual(new Set(list.map((m) => m.id)));
    expect(new Set(rows.map((r) => r.unsubscribe_token)).size).toBe(263);
    const byMember = new Map(rows.map((r) => [r.member_id, r]));
    for (const m of list) {
      const row = byMember.get(m.id);
      expect(row).toMatchObject({ email: m.email, club_id: env.clubId, state: saidNo.includes(m) ? "skipped_opt_out" : "pending", attempts: 0, error: null });
    }
    inbox.length = 0;
    await drain(draft.body.id);
    expect((await mailingOf(draft.body.id)).status).toBe("sent");
    expect(new Set(inbox.flatMap((m) => m.to))).toEqual(new Set(list.filter((m) => !saidNo.includes(m)).map((m) => m.email)));
    expect(inbox).toHaveLength(260);
    inbox.length = 0;
  });

  it("an SMTP 5xx marks the recipient and the member's address bounced; a later mailing skips it until the email changes", async () => {
    const { tier, list } = await audienceOf(2);
    const [bouncing, fine] = list;
    smtp.refusals.set(bouncing.email, [550]);
    const first = await create({ subject: "Un", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    await action(first.body.id, "send");
    await drain(first.body.id);
    expect((await env.call("GET", `${base()}/${first.body.id}`)).body.counts).toEqual({ recipients: 2, sent: 1, failed: 0, bounced: 1, skipped_opt_out: 0 });
    const [row] = (await recipientsOf(first.body.id)).filter((r) => r.member_id === bouncing.id);
    expect(row).toMatchObject({ state: "bounced", email: bouncing.email });
    expect(row.error).toContain("550");
    const seen = await env.call("GET", `/api/clubs/${env.clubId}/members/${bouncing.id}`);
    expect(seen.body).toMatchObject({ email_bounced: true });
    expect((await env.call("GET", `/api/clubs/${env.clubId}/members/${fine.id}`)).body.email_bounced).toBe(false);

    const second = await create({ subject: "Deux", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    await action(second.body.id, "send");
    await drain(second.body.id);
    expect(to(bouncing.email)).toHaveLength(0);
    expect(to(fine.email)).toHaveLength(1);
    expect((await env.call("GET", `${base()}/${second.body.id}`)).body.counts).toEqual({ recipients: 2, sent: 1, failed: 0, bounced: 1, skipped_opt_out: 0 });

    const changed = await env.call("PATCH", `/api/clubs/${env.clubId}/members/${bouncing.id}`, { body: { email: `new-${bouncing.email}` } });
    expect(changed.status).toBe(200);
    expect(changed.body.email_bounced).toBe(false);
    const third = await create({ subject: "Trois", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    await action(third.body.id, "send");
    await drain(third.body.id);
    expect(to(`new-${bouncing.email}`)).toHaveLength(1);
  });

  it("an SMTP 4xx is tried again later, and the member gets the mail once", async () => {
    const { tier, list } = await audienceOf(1);
    const [m] = list;
    smtp.refusals.set(m.email, [451, 451]);
    const mailing = await create({ subject: "Plus tard", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    await action(mailing.body.id, "send");
    const now = Date.now();
    await runDueJobs(env.db, { kinds: MAILING_JOBS, config: env.config, now: new Date(now) });
    const [waiting] = await recipientsOf(mailing.body.id);
    expect(waiting).toMatchObject({ state: "pending", attempts: 1 });
    expect(waiting.error).toContain("451");
    expect(Date.parse(waiting.retry_at as string)).toBeGreaterThan(now);
    expect((await mailingOf(mailing.body.id)).status).toBe("sending");
    await drain(mailing.body.id, { from: now + 60_000 });
    expect(to(m.email)).toHaveLength(1);
    const [done] = await recipientsOf(mailing.body.id);
    expect(done).toMatchObject({ state: "sent", attempts: 3 });
  });

  it("each recipient once when two workers (two connections, as two processes) run the queue at once, with the mailing's run queued twice", async () => {
    const { tier, list } = await audienceOf(24);
    const mailing = await create({ subject: "Ensemble", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    await action(mailing.body.id, "send");
    // A second chain of runs for the same mailing: the claims, not the queue, keep them apart.
    await env.db.tx((t) => enqueueJob(t, { clubId: env.clubId, kind: MAILING_SEND, payload: { mailing_id: mailing.body.id } }));
    const other = await openDb(env.config.databaseUrl);
    try {
      const slow = { ...env.config, mailRatePerMinute: 24 };
      for (let i = 0; i < 50 && (await mailingOf(mailing.body.id)).status === "sending"; i++) {
        const at = new Date(Date.now() + i * 60_000);
        await Promise.all([
          runDueJobs(env.db, { kinds: MAILING_JOBS, config: slow, now: at }),
          runDueJobs(other, { kinds: MAILING_JOBS, config: slow, now: at }),
        ]);
      }
    } finally {
      await other.close();
    }
    expect((await mailingOf(mailing.body.id)).status).toBe("sent");
    for (const m of list) expect(to(m.email)).toHaveLength(1);
    expect(inbox).toHaveLength(24);
    expect((await env.call("GET", `${base()}/${mailing.body.id}`)).body.counts).toMatchObject({ recipients: 24, sent: 24 });
  });

  it("a claim whose worker died (deadline passed) is recorded failed, never mailed again; the counts still add up", async () => {
    const { tier, list } = await audienceOf(3);
    const mailing = await create({ subject: "Crash", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    await action(mailing.body.id, "send");
    // What a process killed between its claim and its record leaves behind.
    await env.db.tx((t) =>
      t
        .update(mailingRecipients)
        .set({ state: "sending", claim_token: "dead", claimed_until: new Date(Date.now() + RECIPIENT_CLAIM_MS).toISOString(), attempts: 1 })
        .where(and(eq(mailingRecipients.mailing_id, mailing.body.id), eq(mailingRecipients.member_id, list[0].id))),
    );
    await runDueJobs(env.db, { kinds: MAILING_JOBS, config: env.config });
    expect((await mailingOf(mailing.body.id)).status).toBe("sending");
    await drain(mailing.body.id, { from: Date.now() + RECIPIENT_CLAIM_MS + 1000 });
    expect(to(list[0].email)).toHaveLength(0);
    expect(inbox).toHaveLength(2);
    const counts = (await env.call("GET", `${base()}/${mailing.body.id}`)).body.counts;
    expect(counts).toEqual({ recipients: 3, sent: 2, failed: 1, bounced: 0, skipped_opt_out: 0 });
    expect((await env.call("GET", `${base()}/${mailing.body.id}/recipients?state=failed`)).body.items[0].error).toContain("interrupted");
  });

  it("scheduled: starts at send_at; cancelled before, it never starts", async () => {
    const { tier, list } = await audienceOf(1);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const a = await create({ subject: "Plus tard", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    const b = await create({ subject: "Annulé", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    expect((await action(a.body.id, "send", { send_at: later })).body).toMatchObject({ status: "scheduled", send_at: later });
    expect((await action(b.body.id, "send", { send_at: later })).body.status).toBe("scheduled");
    expect((await action(b.body.id, "cancel")).body.status).toBe("cancelled");
    expect((await action(b.body.id, "send")).status).toBe(409);
    inbox.length = 0;
    await runDueJobs(env.db, { kinds: MAILING_JOBS, config: env.config });
    expect((await mailingOf(a.body.id)).status).toBe("scheduled");
    await drain(a.body.id, { from: Date.now() + 3_600_000 + 1000 });
    for (let i = 0; i < 3; i++) await runDueJobs(env.db, { kinds: MAILING_JOBS, config: env.config, now: new Date(Date.now() + 3_700_000 + i * 60_000) });
    expect((await mailingOf(a.body.id)).status).toBe("sent");
    expect((await mailingOf(b.body.id)).status).toBe("cancelled");
    expect(inbox.map((m) => header(m.raw, "Subject"))).toEqual(["Plus tard"]);
    expect(to(list[0].email)).toHaveLength(1);
    expect(await recipientsOf(b.body.id)).toHaveLength(0);
  });

  it("erasing a member keeps their delivery's state (the counts) but not their address; one still pending is not mailed", async () => {
    const { tier, list } = await audienceOf(2);
    const mailing = await create({ subject: "Oubli", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    await action(mailing.body.id, "send");
    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${list[0].id}`)).status).toBe(204);
    await drain(mailing.body.id);
    expect(to(list[0].email)).toHaveLength(0);
    expect(to(list[1].email)).toHaveLength(1);
    const rows = await recipientsOf(mailing.body.id);
    expect(rows.find((r) => r.member_id === list[0].id)).toMatchObject({ state: "failed", email: "" });
    expect((await env.call("GET", `${base()}/${mailing.body.id}`)).body.counts).toEqual({ recipients: 2, sent: 1, failed: 1, bounced: 0, skipped_opt_out: 0 });
  });

  it("test send: one mail to the given address, marked as a test; nothing recorded", async () => {
    const { tier } = await audienceOf(1);
    const mailing = await create({ subject: "Essai {{first_name}}", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    const res = await action(mailing.body.id, "test", { email: "secretary@test.org" });
    expect(res.status).toBe(200);
    expect(inbox).toHaveLength(1);
    expect(inbox[0].to).toEqual(["secretary@test.org"]);
    expect(header(inbox[0].raw, "Subject")).toBe("[Test] Essai P0");
    expect(await recipientsOf(mailing.body.id)).toHaveLength(0);
    expect((await mailingOf(mailing.body.id)).status).toBe("draft");
  });
});

describe("consent: one-click unsubscribe, the member's page", () => {
  it("POST /u/<token> without key or session opts the member out once; mailings skip them; service mails still go", async () => {
    const { tier, list } = await audienceOf(1);
    const [m] = list;
    const mailing = await create({ subject: "Lettre", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    await action(mailing.body.id, "send");
    await drain(mailing.body.id);
    const [row] = await recipientsOf(mailing.body.id);
    const url = `/u/${row.unsubscribe_token}`;
    const page = await env.call("GET", url, { key: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain('method="post"');
    expect((await memberRow(env, m.id)).mailing_opt_out_at).toBeNull();
    const res = await env.call("POST", url, {
      key: null,
      rawBody: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    const at = (await memberRow(env, m.id)).mailing_opt_out_at;
    expect(at).toBeString();
    expect((await env.call("POST", url, { key: null })).status).toBe(200);
    expect((await memberRow(env, m.id)).mailing_opt_out_at).toBe(at as string);
    expect((await env.call("POST", "/u/nothing-like-a-real-token-here", { key: null })).status).toBe(404);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/members/${m.id}`)).body.mailing_opt_out_at).toBe(at);

    const next = await create({ subject: "Encore", body_markdown: "x", audience: { tier_ids: [tier.id] } });
    inbox.length = 0;
    await action(next.body.id, "send");
    await drain(next.body.id);
    expect(to(m.email)).toHaveLength(0);
    // The card email is a service: it goes anyway.
    expect((await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/send-card-email`)).status).toBe(200);
    expect(to(m.email)).toHaveLength(1);
  });

  it("the member's page shows the choice and turns mailings back on", async () => {
    const m = await seedMember(env, { mailing_opt_out_at: new Date().toISOString() });
    const token = pageTokenOf(m);
    expect((await env.call("GET", `/api/public/manage/${token}`, { key: null })).body.member.mailings).toBe(false);
    const html = await env.call("GET", `/m/${token}`, { key: null });
    expect(html.text).toContain(`action="/m/${token}/mailings"`);
    const on = await env.call("POST", `/api/public/manage/${token}/mailings`, { key: null, body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(on.body.member.mailings).toBe(true);
    expect((await memberRow(env, m.id)).mailing_opt_out_at).toBeNull();
    const off = await env.call("POST", `/m/${token}/mailings`, {
      key: null,
      rawBody: "enabled=false",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(off.status).toBe(302);
    expect((await memberRow(env, m.id)).mailing_opt_out_at).toBeString();
  });
});
