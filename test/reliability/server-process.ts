// The real server as a child process (`bun app/main.ts`) on a given database file, for the
// crash, backup and soak runs: started, waited for until it listens, killed or stopped.
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freePort } from "../ports";

export const ROOT = join(import.meta.dir, "..", "..");

export type ServerProcess = {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  base: string;
  /** What it printed before listening (the first start prints the key and club id). */
  out: string;
  /** The first start's key and club id, when printed. */
  key: string | null;
  clubId: string | null;
  kill9(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * `preload`: a script Bun runs in the server's process before it (`bun --preload`), for what a
 * test observes from inside. `port`: this one (a restart on the same address), else a free one
 * found by trying.
 */
export async function startServer(dbPath: string, env: Record<string, string> = {}, options: { preload?: string; port?: number } = {}): Promise<ServerProcess> {
  for (let attempt = 0; ; attempt++) {
    const port = options.port ?? freePort();
    const proc = Bun.spawn(["bun", ...(options.preload ? [`--preload=${options.preload}`] : []), "app/main.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: dbPath, BASE_URL: "", ...env },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = proc.stdout.getReader();
    let out = "";
    const deadline = Date.now() + 20_000;
    while (!out.includes("Listening on") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    if (!out.includes("Listening on")) {
      proc.kill("SIGKILL");
      await proc.exited;
      const err = await new Response(proc.stderr).text();
      if (attempt < 3 && !options.port && /EADDRINUSE|in use/i.test(err)) continue;
      throw new Error(`server did not start: ${out}\n${err}`);
    }
    // Keep draining its output so a chatty server never blocks on a full pipe.
    (async () => {
      for (;;) if ((await reader.read()).done) break;
    })().catch(() => {});
    new Response(proc.stderr).text().catch(() => {});
    return {
      proc,
      base: `http://127.0.0.1:${port}`,
      out,
      key: /API key:\s+(mk_live_\w+)/.exec(out)?.[1] ?? null,
      clubId: /club_id:\s+([0-9a-f-]{36})/.exec(out)?.[1] ?? null,
      async kill9() {
        proc.kill("SIGKILL");
        await proc.exited;
      },
      async stop() {
        proc.kill("SIGTERM");
        await proc.exited;
      },
    };
  }
}
