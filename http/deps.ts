// What a transport over lib/ is built with: the API's loader (server/) and the dashboard
// (dashboard/) take the same database, settings and audit writer from the app that mounts both.
import type { Db } from "../db";
import type { AuditWriter } from "../lib/audit";
import type { Config } from "../lib/config";

export type Deps = { db: Db; config: Config; audit: AuditWriter };
