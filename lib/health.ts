// Liveness for a process supervisor or a load balancer: the server answers and its database
// reads. It says nothing about any club, so anyone may ask.
import { sql } from "drizzle-orm";
import { clubs } from "../db/schema";
import type { PublicCtx } from "./context";
import { AppError } from "./errors";
import type { AddressRate } from "./ratelimit";

export type Health = { ok: true; database: "ok" };

/** Checks a minute per client address: a monitor asks every few seconds; a flood should not become database load. */
export const HEALTH_RATE_PER_MINUTE = 600;

/** The rate GET /health declares. */
export const HEALTH_RATE: AddressRate = { scope: "health", perMinute: HEALTH_RATE_PER_MINUTE };

/** Reads the database once; throws a 503 `DATABASE_UNAVAILABLE` when it cannot. */
export async function checkHealth(ctx: PublicCtx): Promise<Health> {
  try {
    await ctx.db.read.select({ one: sql<number>`1` }).from(clubs).limit(1);
  } catch (err) {
    console.error("health check: the database does not read:", err);
    throw new AppError(503, "DATABASE_UNAVAILABLE");
  }
  return { ok: true, database: "ok" };
}
