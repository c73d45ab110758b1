// Drizzle schema (sqlite-core). Column names are snake_case; times are ISO 8601 UTC strings,
// money integer cents, ids UUID strings. Each later area adds its tables below with a migration.
import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CLUB_FIELDS, type ClubField, UPDATE_ONLY_FIELDS } from "../lib/clubs/fields";

function clubColumn(field: ClubField) {
  const base = (() => {
    switch (field.kind) {
      case "integer":
        return integer(field.name);
      case "number":
        return real(field.name);
      case "boolean":
        return integer(field.name, { mode: "boolean" });
      case "json":
        return text(field.name, { mode: "json" });
      default:
        return text(field.name);
    }
  })();
  return field.nullable ? base : base.notNull();
}

const clubFieldColumns = Object.fromEntries([...CLUB_FIELDS, ...UPDATE_ONLY_FIELDS].filter((f) => f.name !== "slug").map((f) => [f.name, clubColumn(f)]));

export const clubs = sqliteTable(
  "clubs",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    ...clubFieldColumns,
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("clubs_slug_unique").on(t.slug)],
);

/** The club's columns by field name (they are generated, so the table type does not list them). */
export const clubColumns = clubs as unknown as Record<string, AnySQLiteColumn>;

export const admins = sqliteTable(
  "admins",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    email: text("email").notNull(),
    first_name: text("first_name"),
    last_name: text("last_name"),
    role: text("role").notNull().default("admin"),
    is_superadmin: integer("is_superadmin", { mode: "boolean" }).notNull().default(false),
    read_only: integer("read_only", { mode: "boolean" }).notNull().default(false),
    access_expires_at: text("access_expires_at"),
    password_hash: text("password_hash"),
    referral_code: text("referral_code"),
    referral_unlocked: integer("referral_unlocked", { mode: "boolean" }).notNull().default(false),
    onboarding_step: text("onboarding_step").notNull().default("created"),
    onboarding: text("onboarding", { mode: "json" }).notNull().default(sql`'{}'`),
    /** Set when the admin is removed from the team; their keys then answer 401. */
    removed_at: text("removed_at"),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("admins_email_unique").on(t.email)],
);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    admin_id: text("admin_id")
      .notNull()
      .references(() => admins.id),
    name: text("name"),
    /** `mk_live_` + 4 characters: what lists and the audit log show. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    key_hash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).notNull().$type<Record<string, string>>(),
    expires_at: text("expires_at"),
    revoked_at: text("revoked_at"),
    last_used_at: text("last_used_at"),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("api_keys_hash_unique").on(t.key_hash), index("api_keys_club_idx").on(t.club_id)],
);

/** Dashboard sessions (email and password login); only the token's SHA-256 is stored. */
export const adminSessions = sqliteTable("admin_sessions", {
  id: text("id").primaryKey(),
  admin_id: text("admin_id")
    .notNull()
    .references(() => admins.id),
  token_hash: text("token_hash").notNull().unique(),
  expires_at: text("expires_at").notNull(),
  created_at: text("created_at").notNull(),
});

export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    admin_id: text("admin_id"),
    key_prefix: text("key_prefix"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    duration_ms: real("duration_ms").notNull(),
    ip: text("ip"),
    via: text("via").notNull(),
    tool: text("tool"),
    created_at: text("created_at").notNull(),
  },
  (t) => [index("audit_log_club_time_idx").on(t.club_id, t.created_at)],
);

/**
 * Background work written in the same transaction as the change that causes it (no I/O inside a
 * transaction: DESIGN.md section 1), run after commit by lib/jobs, surviving restarts.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    kind: text("kind").notNull(),
    payload: text("payload", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    run_after: text("run_after").notNull(),
    last_error: text("last_error"),
    created_at: text("created_at").notNull(),
    finished_at: text("finished_at"),
  },
  (t) => [index("jobs_status_run_after_idx").on(t.status, t.run_after)],
);
