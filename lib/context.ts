// What every lib/ verb receives: the database, the caller (who acts, with which rights), the
// club they act on and the language of their answers. Built once per request by server/ (HTTP
// and MCP alike), or by the CLI. And the guard every verb runs behind (`verb`), so that an MCP
// tool, the CLI or a future caller can never skip a scope.
import type { Db } from "../db";
import { type Caller, requireScope, type Scope } from "./access";
import type { MailConfig, WalletConfig } from "./config";
import type { Locale } from "./i18n";

export type Ctx = {
  db: Db;
  actor: Caller;
  clubId: string;
  locale: Locale;
  baseUrl: string;
  /** Where mail goes (SMTP_URL or the outbox folder); read from the environment when absent. */
  mail?: MailConfig;
  /** Which wallet platforms are configured; read from the environment when absent. */
  wallets?: WalletConfig;
};

export type Verb<I, O> = ((ctx: Ctx, input: I) => Promise<O>) & { scope: Scope };

/** A lib/ operation guarded by `scope` (DESIGN.md section 4's route table); the route reads `.scope` to refuse before the body is read. */
export function verb<I, O>(scope: Scope, fn: (ctx: Ctx, input: I) => Promise<O>): Verb<I, O> {
  const guarded = async (ctx: Ctx, input: I) => {
    requireScope(ctx.actor, scope);
    return fn(ctx, input);
  };
  return Object.assign(guarded, { scope });
}
