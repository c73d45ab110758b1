// Configuration from the environment, each value with a default that works on a fresh machine
// (DESIGN.md section 2).
import { resolve } from "node:path";

export type Config = {
  port: number;
  host: string;
  databaseUrl: string;
  baseUrl: string;
  smtpUrl: string | undefined;
  outboxDir: string;
  logLevel: string;
  /** Largest accepted request body, in bytes (413 beyond). */
  maxBodyBytes: number;
  /** Requests a minute per API key (SPEC "Limits"). */
  rateLimitPerMinute: number;
};

export function loadConfig(raw: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`BASE_URL=`) means "not set": fall back to the default, not to "".
  const env = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? "127.0.0.1";
  const databaseUrl = env.DATABASE_URL ?? "data/club.db";
  return {
    port,
    host,
    databaseUrl,
    baseUrl: (env.BASE_URL ?? `http://${host}:${port}`).replace(/\/+$/, ""),
    smtpUrl: env.SMTP_URL,
    outboxDir: env.OUTBOX_DIR ?? resolve(databaseUrl === ":memory:" ? "data" : resolve(databaseUrl, ".."), "outbox"),
    logLevel: env.LOG_LEVEL ?? "info",
    maxBodyBytes: Number(env.MAX_BODY_BYTES ?? 1024 * 1024),
    rateLimitPerMinute: Number(env.RATE_LIMIT_PER_MINUTE ?? 300),
  };
}
