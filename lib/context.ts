// What every lib/ verb receives: the database, the caller (who acts, with which rights), the
// club they act on and the language of their answers, and the installation's settings a verb may
// need (its address, mail, wallets), taken from the Config by whoever builds the Ctx: lib/ never
// reads the environment. Built once per request by server/ (HTTP and MCP alike), or by the CLI.
// And the guard every verb runs behind (`verb`), so that an MCP tool, the CLI or a future caller
// can never skip a scope.
import type { Db, Queryable } from "../db";
import { type Caller, type Needs, requireScope, type Scopes, scopeList, systemCaller } from "./access";
import type { Config, MailConfig, StripeSettings, WalletConfig, WebhookSettings } from "./config";
import type { Locale } from "./i18n";

/** A setting a request changed, from what to what, kept on the request's audit row (lib/audit). */
export type AuditChange = { field: string; old: unknown; new: unknown };

/** What a verb adds to its request's audit row: filled by the verb once its change is committed. */
export type AuditNotes = { changes?: AuditChange[] };

export type Ctx = {
  db: Db;
  actor: Caller;
  clubId: string;
  locale: Locale;
  baseUrl: string;
  /** Where mail goes (SMTP_URL or the outbox folder). */
  mail: MailConfig;
  /** Which wallet platforms are configured. */
  wallets: WalletConfig;
  /** What the webhook URL guard lets through (WEBHOOK_ALLOW_PRIVATE). */
  webhooks: WebhookSettings;
  /** Stripe's settings; null: card payments are off (lib/stripe). */
  stripe: StripeSettings | null;
  /** The request's audit notes (server/ and the dashboard give one per request; the CLI none). */
  notes?: AuditNotes;
  /**
   * Commits `write` in the transaction of the request's audit row, which the answer waits for
   * anyway (server/ gives it to an API request): one commit instead of two for a verb whose only
   * write records the request itself (a card's scan). Absent (the CLI, MCP, the dashboard): the
   * verb commits its write itself.
   */
  withAuditRow?: (write: (t: Queryable) => Promise<unknown>) => void;
};

/** The part of a Ctx that comes from the installation's settings rather than the call. */
export type Site = Pick<Ctx, "baseUrl" | "mail" | "wallets" | "webhooks" | "stripe">;

export function siteOf(config: Config): Site {
  return {
    baseUrl: config.baseUrl,
    mail: { smtpUrl: config.smtpUrl, outboxDir: config.outboxDir },
    wallets: config.wallets,
    webhooks: config.webhooks,
    stripe: config.stripe,
  };
}

/**
 * The Ctx of the system acting on `clubId` with `scopes` and nothing more, for a public route that
 * runs an admin's verb on someone's behalf (Stripe's webhook records a payment, a member renews
 * with nothing to pay): the verb's own checks and history apply, its author is the system.
 */
export function systemCtx(db: Db, site: Site, clubId: string, locale: Locale, scopes: Scopes): Ctx {
  const actor = systemCaller(clubId, locale, scopes);
  return { db, actor, clubId, locale, ...site };
}

/** How far a long verb has come (lines, members): called between batches, last with done = total. */
export type Progress = (done: number, total: number) => void;

/**
 * `report` called at most once every `everyMs` (an import calls every 50 lines; a client or a
 * task row needs a figure a second, not thousands), the first call and the last (done = total)
 * always. `now`: the clock, for tests.
 */
export function throttledProgress(report: Progress, everyMs: number, now: () => number = () => performance.now()): Progress {
  let last = Number.NEGATIVE_INFINITY;
  return (done, total) => {
    const at = now();
    if (done < total && at - last < everyMs) return;
    last = at;
    report(done, total);
  };
}

export type Verb<I, O> = ((ctx: Ctx, input: I) => Promise<O>) & { scope: Needs };

/** A lib/ operation guarded by `scope` (DESIGN.md section 4's route table; several: all needed); the route reads `.scope` to refuse before the body is read. */
export function verb<I, O>(scope: Needs, fn: (ctx: Ctx, input: I) => Promise<O>): Verb<I, O> {
  const guarded = async (ctx: Ctx, input: I) => {
    requireScope(ctx.actor, ...scopeList(scope));
    return fn(ctx, input);
  };
  return Object.assign(guarded, { scope });
}

/**
 * What every lib/ verb of a public route receives (no credentials: the web card, the pass
 * download, the PassKit web service, public events, login, health): the database, the service's
 * address and wallet settings, the client's address (null when unknown) and the language its
 * answers are in (from Accept-Language). Built per request by server/loader.
 */
export type PublicCtx = {
  db: Db;
  baseUrl: string;
  wallets: WalletConfig;
  ip: string | null;
  locale: Locale;
  /** Work a public form's challenge asks (lib/forms; 0: no challenge, the honeypot still holds). */
  formProofBits: number;
  /**
   * The installation's settings (absent in a few tests: card payments off). Stripe's (null: card
   * payments are off, lib/stripe), and what a public route acting for the system needs to build
   * a Ctx (the Stripe webhook records payments through the admins' verbs).
   */
  site?: Site;
  /** Minutes a ticket whose Stripe Checkout has started holds its place (PENDING_PAYMENT_MINUTES). */
  pendingPaymentMinutes?: number;
  /** Set by a club's HTML page only: its form may come back without the work after this long (lib/forms `NO_SCRIPT_MIN_MS`). */
  formNoScriptMinMs?: number;
};
