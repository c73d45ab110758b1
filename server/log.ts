// The server's log: one JSON object per line on stdout, for a supervisor (journald, docker) to
// keep and a tool (jq, Loki) to search. One line per request at `info` (5xx at `error`), with
// the path but never the query string or a body: a search term or an email is personal data.
import type { LogLevel } from "../lib/config";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = {
  log(level: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>): void;
};

/**
 * Lines written to stdout together once the current burst of work is done (one write for every
 * request answered in the same turn of the event loop, not one each): under load a write per
 * request cost a tenth of the throughput. A kill -9 can lose the lines of that last moment, never
 * an answer or a write.
 */
function bufferedStdout(): (line: string) => void {
  let pending: string[] = [];
  const flush = () => {
    const out = pending.join("");
    pending = [];
    process.stdout.write(out);
  };
  return (line) => {
    if (!pending.length) setImmediate(flush);
    pending.push(`${line}\n`);
  };
}

export function createLogger(level: LogLevel, write: (line: string) => void = bufferedStdout()): Logger {
  const least = RANK[level];
  return {
    log(at, msg, fields = {}) {
      if (RANK[at] < least) return;
      write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }));
    },
  };
}

/** A client's `X-Request-Id` is kept when it is sane (1 to 128 visible ASCII characters, no space or quote), else one is made. */
export function requestId(header: string | null): string {
  return header && /^[\x21\x23-\x7e]{1,128}$/.test(header) ? header : crypto.randomUUID();
}
