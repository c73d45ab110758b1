// The product's HTTP app: the API (server/: routes, docs, MCP) with the dashboard (dashboard/)
// mounted beside it at /admin. The one module that imports both, so that neither imports the
// other (test/lib/areas.test.ts); app/main.ts serves it, tests call it through `app.handle`.
// The dashboard is loaded by its first request, not at start: a server used only through the
// API, automations and MCP never holds its pages (docs/decisions.md, "mem15").
import type { Dashboard } from "../dashboard";
import { isDashboardPath } from "../dashboard/owns";
import type { Db } from "../db";
import type { Deps } from "../http/deps";
import type { Config } from "../lib/config";
import { localeFromAcceptLanguage } from "../lib/i18n";
import { lazy } from "../lib/lazy";
import { type App, type AppOptions, type Beside, createApi } from "../server/app";
import { pageErrorResponse } from "../server/errors";

export type { App, AppOptions };

/** The API with the dashboard beside it, both on one database, one set of settings and one audit writer. */
export async function createApp(db: Db, config: Config, options: AppOptions = {}): Promise<App> {
  return createApi(db, config, { ...options, beside: async (deps) => dashboardOnFirstRequest(deps) });
}

/**
 * The dashboard, made on its first request: requests that come together while it loads wait for
 * the same load (lib/lazy), and a load that failed is tried again by the next request.
 */
function dashboardOnFirstRequest(deps: Deps): Beside {
  let made: Dashboard | undefined;
  const dashboard = lazy(async () => (made = await (await import("../dashboard")).createDashboard(deps)));
  return {
    owns: isDashboardPath,
    via: "dashboard",
    handle: async (request, ip, requestId, readBody) => (await dashboard()).handle(request, ip, requestId, readBody),
    // Before it is made, only its load can have failed: the API's page for an error.
    refused: (err, request) => made?.refused(err, request) ?? pageErrorResponse(err, localeFromAcceptLanguage(request.headers.get("accept-language"))),
    maxBodyBytes: (method, path) => made?.maxBodyBytes(method, path),
  };
}
