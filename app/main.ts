// Entry point: `bun run start`. Takes its address first (a port in use or a wrong HOST stops the
// start in one line, before the database is touched), then applies migrations, creates a first
// club with its owner and key on an empty database (printing the key and the owner's one-time
// sign-in link once), serves the API, the docs, MCP and the dashboard (app/index.ts), and runs
// the background jobs. SIGTERM stops it gracefully (`shutdown`): every request taken is answered,
// the jobs in hand recorded, the database closed (WAL checkpointed).
import type { Server } from "bun";
import { DatabaseRefused, type Db, openDb } from "../db";
import { initFirstClub } from "../lib/auth/init";
import { SIGN_IN_LINK_HOURS } from "../lib/auth/sign-in-links";
import { type Config, loadConfig } from "../lib/config";
import { AppError } from "../lib/errors";
import { localeFromAcceptLanguage } from "../lib/i18n";
import { RequestsInHand, startJobWorker } from "../lib/jobs";
import { closeMailConnections } from "../lib/mail";
import { hashClearPageTokens } from "../lib/member-page";
import { recoverImports, whenOthersWait } from "../lib/members/import-journal";
import { type App, createApp } from "./index";
import { clientAddress } from "../server/client-address";
import { appErrorResponse } from "../server/errors";
import { JOB_KINDS, RECURRING } from "../server/jobs";
import { requestId } from "../server/log";
import { DOCS_PATH } from "../server/docs";

function refuse(reason: string): never {
  console.error(`Cannot start: ${reason}`);
  process.exit(1);
}

/** What a failed listen means, in one line a newcomer can act on. */
function listenFailure(err: unknown, config: Config): string {
  const code = (err as { code?: string }).code;
  const where = `${config.host}:${config.port}`;
  if (code === "EADDRINUSE") return `${where} is already in use (another server is running there?). Stop it, or set PORT to a free port.`;
  if (code === "EACCES") return `no permission to listen on ${where} (ports below 1024 need root). Set PORT to 1024 or more.`;
  if (code === "EADDRNOTAVAIL") return `${config.host} is not an address of this machine. Set HOST to one (127.0.0.1, or 0.0.0.0 for every address).`;
  return `cannot listen on ${where}: ${err instanceof Error ? err.message : String(err)}`;
}

function starting(request: Request): Response {
  const id = requestId(request.headers.get("x-request-id"));
  const answer = appErrorResponse(new AppError(503, "STARTING"), localeFromAcceptLanguage(request.headers.get("accept-language")), id);
  answer.headers.set("retry-after", "1");
  answer.headers.set("x-request-id", id);
  return answer;
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  // A setting out of range (JOB_CONCURRENCY=0...): refuse to start, saying which one.
  refuse(err instanceof Error ? err.message : String(err));
}

/** How long a stop waits for the requests and jobs in hand (SIGTERM: supervisors wait ~10 s before SIGKILL). */
const STOP_GRACE_MS = 10_000;
/** How long a stop keeps answering, each answer closing its connection, before it stops listening. */
const DRAIN_MS = 250;
let stopping = false;
const inHand = new RequestsInHand();

/**
 * Counts the requests in hand, for the stop. Once stopping, an answer closes its connection, so
 * that a client does not send its next request on a connection about to close (a reset).
 */
async function served(answer: Promise<Response>): Promise<Response> {
  inHand.started();
  try {
    const response = await answer;
    if (stopping) response.headers.set("connection", "close");
    return response;
  } finally {
    inHand.answered();
  }
}

// Until the app is ready the address answers 503: a supervisor's health check waits, nothing is lost.
let app: App | null = null;
let server: Server<undefined>;
try {
  server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // Off: the app's own cap (MAX_BODY_BYTES, counted as the body streams in) answers every
    // oversized body with the JSON 413 and its audit row. Bun's cap cut bodies past it with an
    // empty 413 or a reset before the app saw them; the app stops reading at its cap anyway.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: (request, srv) =>
      app
        ? served(app.handle(request, clientAddress(srv.requestIP(request)?.address ?? null, request.headers.get("x-forwarded-for"), config.trustProxy)))
        : starting(request),
  });
} catch (err) {
  refuse(listenFailure(err, config));
}

let db: Db;
try {
  db = await openDb(config.databaseUrl, { check: true });
} catch (err) {
  // A damaged or read-only file, a full disk: one line saying what to do, not a stack trace.
  refuse(err instanceof DatabaseRefused ? err.message : String(err));
}

// A member import a crash cut short is undone before anyone reads the club (lib/members/import-journal).
const undone = await recoverImports(db);
// An import over HTTP rests between its slices only while another request is in hand (its own is one).
whenOthersWait(() => inHand.count > 1);
if (undone) console.log(`Undid ${undone} member import(s) cut short by a stop.`);
// Page tokens an older version kept in clear are hashed before anyone opens a page; their links keep working.
const hashed = await hashClearPageTokens(db);
if (hashed) console.log(`Hashed ${hashed} member page token(s) an older version kept in clear.`);

const email = process.env.ADMIN_EMAIL ?? "owner@example.org";
const first = await initFirstClub(db, { clubName: process.env.CLUB_NAME, email, baseUrl: config.baseUrl });
if (first) {
  const { link } = first;
  console.log(
    [
      "",
      "A first club was created. Its API key and the owner's sign-in link are shown this once; keep the key somewhere safe:",
      "",
      `  API key:  ${first.api_key}`,
      `  club_id:  ${first.club_id}`,
      `  docs:     ${config.baseUrl}${DOCS_PATH}`,
      "",
      `  sign in:  ${link.url}`,
      `            the dashboard, as ${email}: open it to choose your password (works once, for ${SIGN_IN_LINK_HOURS} hours;`,
      `            a new one: bun run cli admins sign-in-link --email ${email})`,
      "",
      `Try: curl -H "Authorization: Bearer ${first.api_key}" ${config.baseUrl}/api/auth/me`,
      "",
    ].join("\n"),
  );
}

app = await createApp(db, config);
// The reminders and the purges run as jobs that each queue their next run: one of each is scheduled now unless pending.
for (const recurring of RECURRING) await recurring.ensure(db);
// Jobs give way to requests: one starts every BUSY_GAP_MS while any is in hand or was answered a
// moment ago (lib/jobs `RequestsInHand`).
const worker = startJobWorker(db, config, JOB_KINDS, undefined, inHand.busy);
console.log(`Listening on ${config.baseUrl} (docs: ${config.baseUrl}${DOCS_PATH}, MCP: ${config.baseUrl}/mcp)`);
// What start-up ran (migrations, building the schemas and the routes, the jobs a start finds due)
// never runs again: once the server has settled and the worker's first pass is over,
// JavaScriptCore drops its compiled code and start-up's garbage (code a request needs is compiled
// again on its first use). After a first start's reminders, 107 MB at rest become 93-94
// (docs/decisions.md "mem15" and "Session 26 (lead)").
// The first pass logs its own failures: the shrink waits for it either way. It runs as a task of
// its own, after a full collection: run straight from the promise's continuation, the first pass's
// objects still referenced from the stack stayed alive, and without the collection first, on one
// core (as the benchmark pins the server), nothing was released.
Promise.all([worker.firstPass.catch(() => {}), Bun.sleep(500)]).then(() =>
  setTimeout(() => {
    Bun.gc(true);
    Bun.shrink();
  }, 0),
);

async function shutdown() {
  if (stopping) return;
  stopping = true;
  const deadline = Date.now() + STOP_GRACE_MS;
  const bounded = (work: Promise<unknown>) => Promise.race([work, Bun.sleep(Math.max(0, deadline - Date.now()))]);
  const jobs = worker.stop();
  // For a moment every answer closes its connection, so that no client is about to send its next
  // request on a kept-alive connection when the server closes the idle ones: that request would
  // be reset unanswered. Then listening stops; the requests taken, and the jobs in hand, finish.
  await Bun.sleep(DRAIN_MS);
  const listening = server.stop();
  await bounded(listening);
  while (Date.now() < deadline && inHand.count > 0) await Bun.sleep(10);
  if (Date.now() >= deadline) await server.stop(true);
  // A job still running past the bound stays `pending` in the database: the next start runs it.
  await bounded(jobs);
  closeMailConnections();
  await app?.audit.drain();
  db.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
