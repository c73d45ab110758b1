// Entry point: `bun run start`. Takes its address first (a port in use or a wrong HOST stops the
// start in one line, before the database is touched), then applies migrations, creates a first
// club with its owner and key on an empty database (printing the key once), serves the API, the
// docs and MCP, and runs the background jobs.
import type { Server } from "bun";
import { openDb } from "../db";
import { initClub, isEmpty } from "../lib/auth/init";
import { type Config, loadConfig } from "../lib/config";
import { AppError } from "../lib/errors";
import { localeFromAcceptLanguage } from "../lib/i18n";
import { startJobWorker } from "../lib/jobs";
import { ensureReminderSchedule } from "../lib/reminders";
import { type App, createApp } from "./app";
import { clientAddress } from "./client-address";
import { appErrorResponse } from "./errors";
import { JOB_KINDS } from "./jobs";
import { DOCS_PATH } from "./openapi";

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
  const answer = appErrorResponse(new AppError(503, "STARTING"), localeFromAcceptLanguage(request.headers.get("accept-language")));
  answer.headers.set("retry-after", "1");
  return answer;
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  // A setting out of range (JOB_CONCURRENCY=0...): refuse to start, saying which one.
  refuse(err instanceof Error ? err.message : String(err));
}

// Until the app is ready the address answers 503: a supervisor's health check waits, nothing is lost.
let app: App | null = null;
let server: Server<undefined>;
try {
  server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // Our own cap answers 413 with a JSON body; Bun's larger one only guards against abuse.
    maxRequestBodySize: config.maxBodyBytes * 4,
    fetch: (request, srv) =>
      app
        ? app.handle(request, clientAddress(srv.requestIP(request)?.address ?? null, request.headers.get("x-forwarded-for"), config.trustProxy))
        : starting(request),
  });
} catch (err) {
  refuse(listenFailure(err, config));
}

const db = openDb(config.databaseUrl);

if (await isEmpty(db)) {
  const first = await initClub(db, { clubName: process.env.CLUB_NAME ?? "My club", email: process.env.ADMIN_EMAIL ?? "owner@example.org" });
  console.log(
    [
      "",
      "A first club was created. Its API key is shown this once; keep it somewhere safe:",
      "",
      `  API key:  ${first.api_key}`,
      `  club_id:  ${first.club_id}`,
      `  docs:     ${config.baseUrl}${DOCS_PATH}`,
      "",
      `Try: curl -H "Authorization: Bearer ${first.api_key}" ${config.baseUrl}/api/auth/me`,
      "",
    ].join("\n"),
  );
}

app = await createApp(db, config);
// The reminders run hourly as a job that queues its next run (lib/reminders): one is scheduled now unless pending.
await ensureReminderSchedule(db);
const worker = startJobWorker(db, config, JOB_KINDS);
console.log(`Listening on ${config.baseUrl} (docs: ${config.baseUrl}${DOCS_PATH}, MCP: ${config.baseUrl}/mcp)`);
// What start-up ran (migrations, building the schemas and the routes) never runs again: once the
// server has settled, JavaScriptCore drops its compiled code and start-up's garbage (code a
// request needs is compiled again on its first use). Some 2 MB less at rest (docs/decisions.md).
setTimeout(() => Bun.shrink(), 500).unref();

async function shutdown() {
  await worker.stop();
  await server.stop();
  await app?.audit.drain();
  db.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
