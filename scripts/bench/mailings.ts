// A mailing to 10,000 members (issue 29): POST mailings/<id>/actions/send on a fresh server, timed
// from the request to the answer (the recipients taken, the first run queued: under 5 s), with the
// server's memory growth (VmHWM after minus before: under 50 MB); then the first mails as a local
// SMTP server receives them, counted over a short window against MAIL_RATE_PER_MINUTE.
import { startSmtp } from "../../test/smtp";
import { type Benchmark, type ConfigName, expectJson, mb, startOurs, timedMeasurement } from "./common";
import { type Dataset, dataset, freshCopy } from "./datasets";
import { makeTempDir, peakRssKb, removeTempDir, type Server } from "./harness";

const RATE = 600;
/** How long the mails are counted after the send (the pace's ten-second windows: two of them and a bit). */
const WINDOW_MS = 25_000;
let ds: Dataset;

export const mailingsBench: Benchmark = {
  name: "mailings",
  title: "POST /api/clubs/<club_id>/mailings/<id>/actions/send to 10,000 members, then the pace",
  about: [
    "Ours only: the real server on a fresh copy of a club of 10,000 members, a draft mailing to all of them (Markdown with",
    "merge fields), then one timed POST actions/send: the recipients are taken (10,000 rows, each with its unsubscribe",
    "token) and the first run is queued in one transaction. Target under 5 s, memory growth (VmHWM) under 50 MB. Then the",
    `worker mails them through a local SMTP server (smtp-server) at MAIL_RATE_PER_MINUTE=${RATE}; the note counts what it`,
    `received in ${WINDOW_MS / 1000} s (the pace allows ${(RATE * WINDOW_MS) / 60_000} in that time, sent in bursts of ten seconds' worth).`,
  ],
  cases: [{ id: "send-10k", title: "queue a mailing to 10,000 members", kind: "time", target: { kind: "ms-max", value: 5000, growthMb: 50 }, baseline: false }],
  async prepare(env) {
    ds = await dataset({ members: 10_000 }, env.log);
  },
  async run(config: ConfigName, round, env) {
    if (config === "baseline") return [];
    const dir = makeTempDir("club-bench-mailings-");
    const smtp = await startSmtp();
    let server: Server | undefined;
    try {
      server = await startOurs(freshCopy(ds, dir), dir, { SMTP_URL: smtp.url, MAIL_RATE_PER_MINUTE: String(RATE) });
      const headers = { authorization: `Bearer ${ds.key}`, "content-type": "application/json" };
      const base = `${server.url}/api/clubs/${ds.clubId}/mailings`;
      const body = {
        subject: "Assemblée générale",
        body_markdown: "Bonjour **{{first_name}}**,\n\nvotre adhésion court jusqu'au {{membership_end}}.\n\n[Votre carte]({{card_url}})",
      };
      const draft = await expectJson(await fetch(base, { method: "POST", headers, body: JSON.stringify(body) }), "ours POST mailings", 201);
      const before = peakRssKb(server.pid);
      const started = performance.now();
      const sent = await expectJson(await fetch(`${base}/${draft.id}/actions/send`, { method: "POST", headers }), "ours POST actions/send");
      const ms = performance.now() - started;
      const after = peakRssKb(server.pid);
      const recipients = (sent.counts as { recipients: number }).recipients;
      await Bun.sleep(WINDOW_MS);
      // The mailing's own mails (the dataset's club may have other mail queued).
      const received = smtp.inbox.filter((mail) => /^List-Unsubscribe-Post:/im.test(mail.raw)).length;
      const others = smtp.inbox.length - received;
      const m = timedMeasurement({
        bench: "mailings",
        caseId: "send-10k",
        round,
        config: "ours",
        times: [ms],
        peakKb: after,
        growthKb: before !== null && after !== null ? after - before : null,
        signature: null,
        note: `${recipients} recipients taken; ${received} mailing mails received in ${WINDOW_MS / 1000} s at ${RATE}/min (and ${others} other mails); VmHWM ${mb(before)} before, ${mb(after)} after`,
      });
      env.log(`round ${round} ${"mailings/send-10k".padEnd(24)} ours     ${ms.toFixed(0)} ms  ${m.note}`);
      return [m];
    } finally {
      await server?.stop();
      await smtp.close();
      removeTempDir(dir);
    }
  },
};
