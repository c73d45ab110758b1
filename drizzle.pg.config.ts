// drizzle-kit for PostgreSQL: the same db/schema.ts, built with PostgreSQL's columns
// (db/dialect.ts chooses them from DATABASE_URL), into its own migrations.
import { defineConfig } from "drizzle-kit";

process.env.DATABASE_URL = "postgres://drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/pg-migrations",
});
