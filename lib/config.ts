// Configuration from the environment, each value with a default that works on a fresh machine
// (DESIGN.md section 2).
import { isIPv4, isIPv6 } from "node:net";
import { resolve } from "node:path";
import { engineOf } from "../db/dialect";

export type Config = {
  port: number;
  host: string;
  databaseUrl: string;
  baseUrl: string;
  smtpUrl: string | undefined;
  outboxDir: string;
  /** Largest accepted request body, in bytes (413 beyond). */
  maxBodyBytes: number;
  /** Requests a minute per API key (SPEC "Limits"). */
  rateLimitPerMinute: number;
  /** Background jobs the worker runs at once (JOB_CONCURRENCY, 1..64): deliveries wait on the network. */
  jobConcurrency: number;
  /** Mails of a mailing sent a minute (MAIL_RATE_PER_MINUTE, default 120): the pace lib/mailings keeps to (DESIGN.md section 22). */
  mailRatePerMinute: number;
  /** Wallet passes: each platform is off (null) until its settings are all present. */
  wallets: WalletConfig;
  /** Origins whose pages may call the routes that take a key (CORS_ORIGINS; `*`: any). Public routes answer any origin. */
  corsOrigins: string[];
  /** Addresses of the reverse proxies whose X-Forwarded-For is believed (TRUST_PROXY, comma-separated). */
  trustProxy: string[];
  /** The least important log line written (LOG_LEVEL): one JSON line per request at `info`. */
  logLevel: LogLevel;
  /** Work asked of a public form (PUBLIC_FORM_POW_BITS, 0..24: leading zero bits of SHA-256; 0 turns the challenge off). */
  formProofBits: number;
  /**
   * Minutes a registration whose online payment has started holds its place (PENDING_PAYMENT_MINUTES,
   * DESIGN.md section 13): a paid ticket bought through Stripe Checkout; a pending registration
   * paid otherwise holds its place for the club's `pending_hold_hours`.
   */
  pendingPaymentMinutes: number;
  /**
   * Check every JSON answer against its route's response schema (CHECK_RESPONSES): on in the
   * tests, off in production, where the check cost more than a page of members' query.
   */
  checkResponses: boolean;
  /** Webhooks (DESIGN.md section 15): WEBHOOK_ALLOW_PRIVATE=true lets loopback and private addresses through the SSRF guard. */
  webhooks: WebhookSettings;
  /** Card payments through Stripe (DESIGN.md section 13): on (non-null) when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are both set. */
  stripe: StripeSettings | null;
};

/** Stripe's keys and where its API is (STRIPE_API_URL: Stripe's own, or a local stand-in in tests). */
export type StripeSettings = { secretKey: string; webhookSecret: string; apiUrl: string };

/** What the webhook guard allows: link-local and metadata addresses stay refused whatever this says. */
export type WebhookSettings = {
  allowPrivate: boolean;
  /** How long a delivery waits for an answer; DESIGN.md section 15 says 15 s (lib/webhooks/deliver), set only by tests. */
  deliveryTimeoutMs?: number;
};

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where mail goes: SMTP_URL, or .eml files in the outbox folder. */
export type MailConfig = { smtpUrl?: string; outboxDir: string };

export type AppleWalletConfig = {
  passTypeId: string;
  teamId: string;
  /** PEM files: the Pass Type ID certificate, its private key, Apple's WWDR intermediate. */
  certFile: string;
  keyFile: string;
  keyPassphrase: string | undefined;
  wwdrFile: string;
  /** APNs origin (Apple's production gateway by default; a local server in tests). */
  apnsUrl: string;
  /** An extra CA to trust for APNs (APNS_CA_FILE; a local stand-in's CA in tests), else the system's. */
  apnsCaFile: string | undefined;
};

export type GoogleWalletConfig = {
  issuerId: string;
  /** The service account's JSON key file (client_email, private_key). */
  keyFile: string;
  /** Wallet REST API base and the OAuth token endpoint (Google's by default; local servers in tests). */
  apiUrl: string;
  tokenUrl: string;
};

export type WalletConfig = { apple: AppleWalletConfig | null; google: GoogleWalletConfig | null };

function walletConfig(env: Record<string, string | undefined>): WalletConfig {
  const apple =
    env.APPLE_PASS_TYPE_ID && env.APPLE_TEAM_ID && env.APPLE_PASS_CERT && env.APPLE_PASS_KEY && env.APPLE_WWDR_CERT
      ? {
          passTypeId: env.APPLE_PASS_TYPE_ID,
          teamId: env.APPLE_TEAM_ID,
          certFile: env.APPLE_PASS_CERT,
          keyFile: env.APPLE_PASS_KEY,
          keyPassphrase: env.APPLE_PASS_KEY_PASSPHRASE,
          wwdrFile: env.APPLE_WWDR_CERT,
          apnsUrl: (env.APNS_URL ?? "https://api.push.apple.com").replace(/\/+$/, ""),
          apnsCaFile: env.APNS_CA_FILE,
        }
      : null;
  const google =
    env.GOOGLE_WALLET_ISSUER_ID && env.GOOGLE_WALLET_KEY_FILE
      ? {
          issuerId: env.GOOGLE_WALLET_ISSUER_ID,
          keyFile: env.GOOGLE_WALLET_KEY_FILE,
          apiUrl: (env.GOOGLE_WALLET_API_URL ?? "https://walletobjects.googleapis.com/walletobjects/v1").replace(/\/+$/, ""),
          tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL ?? "https://oauth2.googleapis.com/token",
        }
      : null;
  return { apple, google };
}

/**
 * Default work of a public form's challenge: 2^16 SHA-256 on average, a fraction of a second for a
 * phone's WebCrypto (measured: docs/decisions.md, "Bots must not fill an event").
 */
export const FORM_PROOF_BITS = 16;

/** The JOB_CONCURRENCY bounds: one runs jobs one after the other; more than 64 only adds load on the far ends. */
export const JOB_CONCURRENCY_MAX = 64;

/** A setting that must be a whole number within [min, max]; anything else stops the start with a message naming it. */
function intSetting(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

/** CORS_ORIGINS: comma-separated origins (`https://club.example`, scheme and host, no path), or `*`. */
function corsOrigins(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => {
      if (o === "*") return o;
      let url: URL | null = null;
      try {
        url = new URL(o);
      } catch {}
      if (!url || !/^https?:$/.test(url.protocol) || url.origin !== o.replace(/\/$/, "")) {
        throw new Error(`CORS_ORIGINS must list origins such as https://club.example, separated by commas (got "${o}")`);
      }
      return url.origin;
    });
}

/**
 * TRUST_PROXY: the reverse proxies' IP addresses, in the form the server sees a connection's
 * (IPv6 compressed in lower case, an IPv4-mapped address as IPv4), so that a listed proxy is
 * recognised however it was written. Anything else (`true`, a host name, a range) would silently
 * match no connection: the start is refused.
 */
function proxyAddresses(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean)
    .map((a) => {
      const address = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a)?.[1] ?? a;
      if (isIPv4(address)) return address;
      if (isIPv6(address)) return new URL(`http://[${address}]`).hostname.slice(1, -1);
      throw new Error(`TRUST_PROXY must list the reverse proxy's IP addresses, separated by commas (such as 127.0.0.1,::1): got "${raw}"`);
    });
}

function boolSetting(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new Error(`${name} must be true or false (got "${env[name]}")`);
}

function logLevel(raw: string | undefined): LogLevel {
  const level = (raw ?? "info").trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${raw}")`);
  return level as LogLevel;
}

function stripeSettings(env: Record<string, string | undefined>): StripeSettings | null {
  if (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET) return null;
  const apiUrl = (env.STRIPE_API_URL ?? "https://api.stripe.com").replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+$/.test(apiUrl)) throw new Error(`STRIPE_API_URL must be an origin such as https://api.stripe.com (got "${env.STRIPE_API_URL}")`);
  return { secretKey: env.STRIPE_SECRET_KEY.trim(), webhookSecret: env.STRIPE_WEBHOOK_SECRET.trim(), apiUrl };
}

export function loadConfig(raw: Record<string, string | undefined> = process.env): Config {
  // An empty variable (`BASE_URL=`) means "not set": fall back to the default, not to "".
  const env = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const port = intSetting(env, "PORT", 3000, 1, 65_535);
  const host = env.HOST ?? "127.0.0.1";
  const databaseUrl = env.DATABASE_URL ?? "data/club.db";
  const engine = engineOf(databaseUrl);
  return {
    port,
    host,
    databaseUrl,
    baseUrl: (env.BASE_URL ?? `http://${host}:${port}`).replace(/\/+$/, ""),
    smtpUrl: env.SMTP_URL,
    outboxDir: env.OUTBOX_DIR ?? resolve(databaseUrl === ":memory:" || engine === "postgres" ? "data" : resolve(databaseUrl, ".."), "outbox"),
    maxBodyBytes: intSetting(env, "MAX_BODY_BYTES", 1024 * 1024, 1024, 1024 * 1024 * 1024),
    rateLimitPerMinute: intSetting(env, "RATE_LIMIT_PER_MINUTE", 300, 1, 1_000_000_000),
    jobConcurrency: intSetting(env, "JOB_CONCURRENCY", 8, 1, JOB_CONCURRENCY_MAX),
    mailRatePerMinute: intSetting(env, "MAIL_RATE_PER_MINUTE", 120, 1, 1_000_000),
    wallets: walletConfig(env),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    trustProxy: proxyAddresses(env.TRUST_PROXY),
    logLevel: logLevel(env.LOG_LEVEL),
    formProofBits: intSetting(env, "PUBLIC_FORM_POW_BITS", FORM_PROOF_BITS, 0, 24),
    pendingPaymentMinutes: intSetting(env, "PENDING_PAYMENT_MINUTES", 30, 1, 1440),
    checkResponses: boolSetting(env, "CHECK_RESPONSES", false),
    webhooks: { allowPrivate: boolSetting(env, "WEBHOOK_ALLOW_PRIVATE", false) },
    stripe: stripeSettings(env),
  };
}
