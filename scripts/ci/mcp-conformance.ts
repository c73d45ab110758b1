// The official MCP conformance suite (@modelcontextprotocol/conformance) against the real server:
// `bun app/main.ts` on a fresh SQLite file, whose first start makes a club and its all-edit
// API key. The suite sends no credentials, so a small proxy in front adds `Authorization: Bearer
// <key>` and forwards everything else as it came (Host and Origin included: the suite's
// dns-rebinding-protection scenario then tests the server's own check, server/mcp-origin.ts).
// The server's BASE_URL is the proxy's address, as behind any reverse proxy. Every server scenario
// of the suite runs (`--suite all`: the active ones and the pending ones); a failure not listed in
// mcp-conformance-expected.yaml (each entry says why it does not apply to a club server), a listed
// one that passes, or one that fails for another reason than the file's `because` says, fails the
// run. `bun run check:mcp-conformance`.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startServer } from "../../test/reliability/server-process";

const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const EXPECTED = join(ROOT, "scripts/ci/mcp-conformance-expected.yaml");

/** Forwards a request to `upstream` unchanged but for the key; the answer (an event stream too) as it comes. */
function forwarder(upstream: () => { base: string; key: string }) {
  return async (request: Request): Promise<Response> => {
    const { base, key } = upstream();
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.set("authorization", `Bearer ${key}`);
    // Uncompressed answers: fetch would unpack a compressed one and leave its content-encoding.
    headers.delete("accept-encoding");
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    return fetch(`${base}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: "manual" });
  };
}

type Check = { name: string; status: string; errorMessage?: string; details?: unknown };

/** The suite's results: each scenario's failed and warning checks, with what they said. */
function notPassed(results: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  if (!existsSync(results)) return found;
  for (const run of readdirSync(results).sort()) {
    const scenario = run.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
    const checks = JSON.parse(readFileSync(join(results, run, "checks.json"), "utf8")) as Check[];
    const said = checks
      .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
      .map((c) => `${c.status} ${c.name}: ${(c.errorMessage ?? JSON.stringify(c.details ?? {})).slice(0, 300)}`);
    found.set(scenario, said);
  }
  return found;
}

/**
 * Whether every listed scenario failed for its stated reason alone (the `because` map of the
 * expected-failures file), and the map lists exactly the scenarios the suite is told to expect.
 */
function failedForTheirReasons(found: Map<string, string[]>): boolean {
  const expected = Bun.YAML.parse(readFileSync(EXPECTED, "utf8")) as { server: string[]; because: Record<string, string> };
  let ok = true;
  const wrong = (why: string) => {
    console.log(`  ✗ ${why}`);
    ok = false;
  };
  for (const scenario of new Set([...expected.server, ...Object.keys(expected.because)])) {
    const reason = expected.because[scenario];
    if (!reason || !expected.server.includes(scenario)) wrong(`${scenario}: listed in only one of server and because`);
    else for (const said of found.get(scenario) ?? []) if (!said.includes(reason)) wrong(`${scenario}: failed otherwise than "${reason}": ${said}`);
  }
  return ok;
}

const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), "club-mcp-conformance-"));
let upstream = { base: "", key: "" };
// An event stream (a tool reporting progress) may stay quiet for a while: no idle cut.
const proxy = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: forwarder(() => upstream) });
const front = `http://127.0.0.1:${proxy.port}`;
const server = await startServer(join(dir, "club.db"), { BASE_URL: front });
let code = 1;
try {
  if (!server.key) throw new Error(`the first start printed no API key:\n${server.out}`);
  upstream = { base: server.base, key: server.key };
  const suite = Bun.spawn(["bun", SUITE, "server", "--url", `${front}/mcp`, "--suite", "all", "--expected-failures", EXPECTED, "-o", join(dir, "results")], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  code = await suite.exited;
  console.log("\nmcp-conformance: what did not pass, by scenario (expected or not):");
  const found = notPassed(join(dir, "results"));
  for (const [scenario, said] of found) for (const line of said) console.log(`  ${scenario}: ${line}`);
  console.log("mcp-conformance: each expected failure for its reason alone:");
  if (!failedForTheirReasons(found)) code ||= 1;
} finally {
  await server.stop();
  proxy.stop(true);
  rmSync(dir, { recursive: true, force: true });
}
console.log(`mcp-conformance: ${code === 0 ? "passed" : "FAILED"} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(code);
