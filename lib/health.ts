// Liveness for a process supervisor or a load balancer: the server answers and its database
// reads. It says nothing about any club, so anyone may ask.
import { sql } from "drizzle-orm";
import type { Db } from "../db";
import { clubs } from "../db/schema";
import { AppError } from "./errors";
import { limitAddress } from "./ratelimit";

export type Health = { ok: true; database: "ok" };

/** Checks a minute per client address: a monitor asks every few seconds; a flood should not become database load. */
export const HEALTH_RATE_PER_MINUTE = 600;

/** Reads the database once; throws a 503 `DATABASE_UNAVAILABLE` when it cannot, 429 past the address's rate. */
export async function checkHealth(db: Db, ip: string | null): Promise<Health> {
  limitAddress(db, "health", HEALTH_RATE_PER_MINUTE, ip);
  try {
    await db.read.select({ one: sql<number>`1` }).from(clubs).limit(1);
  } catch (err) {
    console.error("health check: the database does not read:", err);
    throw new AppError(503, "DATABASE_UNAVAILABLE");
  }
  return { ok: true, database: "ok" };
}
