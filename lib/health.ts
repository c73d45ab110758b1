// Liveness for a process supervisor or a load balancer: the server answers and its database
// reads. It says nothing about any club, so anyone may ask.
import { sql } from "drizzle-orm";
import type { Db } from "../db";
import { clubs } from "../db/schema";
import { AppError } from "./errors";

export type Health = { ok: true; database: "ok" };

/** Reads the database once; throws a 503 `DATABASE_UNAVAILABLE` when it cannot. */
export async function checkHealth(db: Db): Promise<Health> {
  try {
    await db.read.select({ one: sql<number>`1` }).from(clubs).limit(1);
  } catch (err) {
    console.error("health check: the database does not read:", err);
    throw new AppError(503, "DATABASE_UNAVAILABLE");
  }
  return { ok: true, database: "ok" };
}
