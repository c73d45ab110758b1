// Lookups the CLI needs by what a person types: a club by id or slug.
import { eq, or } from "drizzle-orm";
import type { Db } from "../../db";
import { clubs } from "../../db/schema";
import { NotFound } from "../../lib/errors";

/** The club whose id or slug is `ref`; CLUB_NOT_FOUND otherwise. */
export async function findClub(db: Db, ref: string): Promise<{ id: string; slug: string; name: string }> {
  const [row] = await db.read
    .select({ id: clubs.id, slug: clubs.slug, name: (clubs as unknown as Record<string, typeof clubs.slug>).name })
    .from(clubs)
    .where(or(eq(clubs.id, ref), eq(clubs.slug, ref)))
    .limit(1);
  if (!row) throw new NotFound("CLUB_NOT_FOUND");
  return row;
}
