// The product's HTTP app: the API (server/: routes, docs, MCP) with the dashboard (dashboard/)
// mounted beside it at /admin. The one module that imports both, so that neither imports the
// other (test/lib/areas.test.ts); app/main.ts serves it, tests call it through `app.handle`.
import { createDashboard, isDashboardPath } from "../dashboard";
import type { Db } from "../db";
import type { Config } from "../lib/config";
import { type App, type AppOptions, createApi } from "../server/app";

export type { App, AppOptions };

/** The API with the dashboard beside it, both on one database, one set of settings and one audit writer. */
export async function createApp(db: Db, config: Config, options: AppOptions = {}): Promise<App> {
  return createApi(db, config, { ...options, beside: async (deps) => ({ ...(await createDashboard(deps)), owns: isDashboardPath, via: "dashboard" }) });
}
