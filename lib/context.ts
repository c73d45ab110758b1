// What every lib/ verb receives: the database, the caller (who acts, with which rights), the
// club they act on and the language of their answers. Built once per request by server/ (HTTP
// and MCP alike), or by the CLI.
import type { Db } from "../db";
import type { Caller } from "./auth/caller";
import type { WalletConfig } from "./config";
import type { Locale } from "./i18n";
import type { MailConfig } from "./mail";

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
};
