// What every lib/ verb receives: the database, the caller (who acts, with which rights), the
// club they act on and the language of their answers, and the installation's settings a verb may
// need (its address, mail, wallets), taken from the Config by whoever builds the Ctx: lib/ never
// reads the environment. Built once per request by server/ (HTTP and MCP alike), or by the CLI.
import type { Db } from "../db";
import type { Caller } from "./auth/caller";
import type { Config, WalletConfig } from "./config";
import type { Locale } from "./i18n";
import type { MailConfig } from "./mail";

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
};

/** The part of a Ctx that comes from the installation's settings rather than the call. */
export type Site = Pick<Ctx, "baseUrl" | "mail" | "wallets">;

export function siteOf(config: Config): Site {
  return { baseUrl: config.baseUrl, mail: { smtpUrl: config.smtpUrl, outboxDir: config.outboxDir }, wallets: config.wallets };
}
