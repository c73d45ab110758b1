// An invoice's PDF with its QR-bill, GET /api/clubs/<club_id>/invoices/<id>/pdf (issue 27: under
// 50 ms): a club with a QR-IBAN and a postal address, an invoice of three lines, its PDF fetched
// one request after another on a fresh server, timed from the request to the last byte. And the
// dues run, POST /api/clubs/<club_id>/invoices/run (issue 27: 10,000 members under 20 s): every
// member of the 10,000 paid and due, one run on a fresh copy per round, timed from the request
// to the answer, the invoices counted in the database after.
import { Database } from "bun:sqlite";
import { addDays, todayUtc } from "../../lib/days";
import { type Benchmark, type ConfigName, countRows, expectJson, mb, type Measurement, sqliteStore, startOurs, startupDone, timedMeasurement } from "./common";
import { type Dataset, dataset, freshCopy } from "./datasets";
import { cpuTimeMs, makeTempDir, peakRssKb, removeTempDir, type Server } from "./harness";

/** Timed PDFs per round (after one untimed: the first loads PDFKit and swissqrbill). */
const RUNS = 20;
let ds: Dataset;

export const invoicesBench: Benchmark = {
  name: "invoices",
  title: "GET /api/clubs/<club_id>/invoices/<id>/pdf, with its Swiss QR-bill",
  about: [
    "Ours only: the real server, one request at a time, timed by the client from the request to the last byte: the key,",
    "the audit row, the invoice, club, member and logo read, the A4 page drawn with PDFKit (DejaVu Sans embedded for the",
    "letterhead) and the payment part drawn by swissqrbill (its QR code as vector squares). A club with a QR-IBAN, a",
    "postal address, an invoice of three lines; 20 timed PDFs per round after one untimed, once the server's own start-up",
    "work is done (no job due, then its CPU time still for 300 ms: the dataset makes 575 renewal reminders due, sent at the",
    "mail pace, 20 a run, the next run 10 s later; the first 20 mails, then the start's `Bun.shrink()`, came while the first",
    "PDFs were timed). The server's CPU per timed PDF is reported with the times. Target under 50 ms.",
    "The dues run: the 10,000 members made paid (a third on the club's fee of 80.00, the others on the two tiers), one",
    "`POST invoices/run` per round on a fresh copy with `until` past every end, timed by the client to the answer: the",
    "members read, 20 batches of 500 each under the club's lock (their invoices read, 500 numbers taken at once, the",
    "invoices inserted, `invoice.created` offered to the club's endpoints: none here). Target under 20 s.",
  ],
  cases: [
    { id: "pdf", title: "invoice PDF with QR-bill", kind: "time", target: { kind: "ms-max", value: 50 }, baseline: false },
    { id: "dues-run", title: "dues run of 10,000 members", kind: "time", target: { kind: "ms-max", value: 20_000 }, baseline: false },
  ],
  async prepare(env) {
    ds = await dataset({ members: 10_000 }, env.log);
  },
  async run(config: ConfigName, round, env) {
    if (config === "baseline") return [];
    return [await pdfCase(round, env.log), await duesRunCase(round, env.log)];
  },
};

async function pdfCase(round: number, log: (line: string) => void): Promise<Measurement> {
  const dir = makeTempDir("club-bench-invoices-");
  let server: Server | undefined;
  try {
    const path = freshCopy(ds, dir);
    server = await startOurs(path, dir);
    const { url, headers } = await invoicePdfUrl(server.url, ds);
    // Not timed beside the start's own work: the dataset makes 575 renewal reminders due, sent at
    // the mail pace (20 a run, the next run 10 s later), and the first 20 mails, then the start's
    // Bun.shrink(), came while the first PDFs were timed (docs/benchmarks.md "journal17").
    const start = await startupDone(sqliteStore, path, server.pid);
    const before = peakRssKb(server.pid);
    const times: number[] = [];
    let bytes = 0;
    let cpuBefore = 0;
    for (let i = 0; i <= RUNS; i++) {
      if (i === 1) cpuBefore = cpuTimeMs(server.pid);
      const started = performance.now();
      const res = await fetch(url, { headers });
      const body = await res.arrayBuffer();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`ours invoice pdf: ${res.status} ${new TextDecoder().decode(body).slice(0, 300)}`);
      bytes = body.byteLength;
      if (i > 0) times.push(ms);
    }
    const cpuPerPdf = (cpuTimeMs(server.pid) - cpuBefore) / RUNS;
    const after = peakRssKb(server.pid);
    const m = timedMeasurement({
      bench: "invoices",
      caseId: "pdf",
      round,
      config: "ours",
      times,
      peakKb: after,
      growthKb: before !== null && after !== null ? after - before : null,
      signature: null,
      note:
        `${bytes} bytes; times ${times.map((t) => t.toFixed(0)).join(", ")} ms; server CPU ${cpuPerPdf.toFixed(1)} ms a PDF; ` +
        `start-up work done ${start.waited.toFixed(1)} s after the set-up${start.quiet ? "" : " (not quiet)"}; VmHWM ${mb(before)} before, ${mb(after)} after`,
    });
    log(`round ${round} ${"invoices/pdf".padEnd(24)} ours     median ${m.p50Ms.toFixed(1)} ms  ${m.note}`);
    return m;
  } finally {
    await server?.stop();
    removeTempDir(dir);
  }
}

/**
 * The club of `ds` given a QR-IBAN and a postal address, and an invoice of three lines for its
 * first member, on the server at `serverUrl`: the address of its PDF and the headers to ask with.
 */
export async function invoicePdfUrl(serverUrl: string, ds: Dataset): Promise<{ url: string; headers: Record<string, string> }> {
  const headers = { authorization: `Bearer ${ds.key}`, "content-type": "application/json" };
  const base = `${serverUrl}/api/clubs/${ds.clubId}`;
  await expectJson(
    await fetch(base, {
      method: "PUT",
      headers,
      body: JSON.stringify({ payout_iban: "CH44 3199 9123 0008 8901 2", address: "Rue du Lac 12", postal_code: "1003", city: "Lausanne", country: "CH" }),
    }),
    "ours PUT club",
  );
  const list = await expectJson(await fetch(`${base}/members?limit=1`, { headers }), "ours GET members");
  const member = (list.items as { id: string }[])[0];
  const lines = [
    { label: "Cotisation", amount_cents: 8000 },
    { label: "Licence", amount_cents: 1550 },
    { label: "Rabais famille", amount_cents: -1000 },
  ];
  const invoice = await expectJson(
    await fetch(`${base}/invoices`, { method: "POST", headers, body: JSON.stringify({ member_id: member.id, lines }) }),
    "ours POST invoices",
    201,
  );
  return { url: `${base}/invoices/${invoice.id}/pdf`, headers };
}

async function duesRunCase(round: number, log: (line: string) => void): Promise<Measurement> {
  const dir = makeTempDir("club-bench-dues-");
  let server: Server | undefined;
  try {
    const path = freshCopy(ds, dir);
    // Every member paid and due, the club's fee set: the run makes 10,000 invoices.
    const db = new Database(path);
    db.run("update members set payment_status = 'paid', payment_mode = 'one_time'");
    db.run("update clubs set membership_fee_cents = 8000");
    db.close();
    server = await startOurs(path, dir);
    const headers = { authorization: `Bearer ${ds.key}`, "content-type": "application/json" };
    const until = addDays(todayUtc(), 400);
    const before = peakRssKb(server.pid);
    const started = performance.now();
    const res = await fetch(`${server.url}/api/clubs/${ds.clubId}/invoices/run`, { method: "POST", headers, body: JSON.stringify({ until }) });
    const answer = await expectJson(res, "ours POST invoices/run");
    const ms = performance.now() - started;
    const after = peakRssKb(server.pid);
    const rows = countRows(path, { invoices: "select count(*) as n from invoices" }).invoices;
    if (answer.created !== ds.members || rows !== ds.members) throw new Error(`dues run: created ${answer.created}, ${rows} rows, expected ${ds.members}`);
    const m = timedMeasurement({
      bench: "invoices",
      caseId: "dues-run",
      round,
      config: "ours",
      times: [ms],
      peakKb: after,
      growthKb: before !== null && after !== null ? after - before : null,
      signature: null,
      note: `${rows} invoices made (${(ms / rows).toFixed(2)} ms each); VmHWM ${mb(before)} before, ${mb(after)} after`,
    });
    log(`round ${round} ${"invoices/dues-run".padEnd(24)} ours     ${(ms / 1000).toFixed(2)} s  ${m.note}`);
    return m;
  } finally {
    await server?.stop();
    removeTempDir(dir);
  }
}
