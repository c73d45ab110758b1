// Entry point: `bun run start`. Applies migrations, creates a first club with its owner and key
// on an empty database (printing the key once), serves the API, the docs and MCP, and runs the
// background jobs.
import { openDb } from "../db";
import "../lib/cards/pass-updates";
import { initClub, isEmpty } from "../lib/clubs/init";
import { loadConfig } from "../lib/config";
import { startJobWorker } from "../lib/jobs";
import { createApp } from "./app";
import { DOCS_PATH } from "./openapi";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  // A setting out of range (JOB_CONCURRENCY=0...): refuse to start, saying which one.
  console.error(`Cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
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

const app = await createApp(db, config);
const server = Bun.serve({
  port: config.port,
  hostname: config.host,
  // Our own cap answers 413 with a JSON body; Bun's larger one only guards against abuse.
  maxRequestBodySize: config.maxBodyBytes * 4,
  fetch: (request, srv) => app.handle(request, srv.requestIP(request)?.address ?? null),
});
const worker = startJobWorker(db, config);
console.log(`Listening on ${config.baseUrl} (docs: ${config.baseUrl}${DOCS_PATH}, MCP: ${config.baseUrl}/mcp)`);

async function shutdown() {
  await worker.stop();
  await server.stop();
  await app.audit.drain();
  db.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
