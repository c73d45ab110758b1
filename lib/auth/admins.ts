// Admins: created with their club (init) or later (CLI, team), and the AdminMe profile that
// GET /api/auth/me and the `whoami` tool return.
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, Queryable } from "../../db";
import { admins } from "../../db/schema";
import { toClubAdmin } from "../clubs";
import { getClubRow } from "../clubs/internal";
import { ClubAdmin } from "../clubs/schemas";
import type { Ctx } from "../context";
import { Conflict, NotFound } from "../errors";
import { newId, nowIso, readableCode } from "../ids";
import { ScopesSchema } from "../access";

export const ROLES = ["owner", "admin", "staff"] as const;

export const AdminMe = z
  .object({
    id: z.uuid(),
    club_id: z.uuid(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    role: z.string(),
    is_superadmin: z.boolean().default(false),
    scopes: ScopesSchema.nullable().meta({ description: "Level per area of the key in use (null for a dashboard session)." }),
    read_only: z.boolean().default(false),
    access_expires_at: z.string().meta({ format: "date-time" }).nullable(),
    referral_code: z.string().nullable(),
    referral_unlocked: z.boolean().default(false),
    onboarding_step: z.string().default("created"),
    club: ClubAdmin,
    onboarding: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: "AdminMe", description: "The admin behind the key and their club. `club_id` is what every club route needs." });
export type AdminMe = z.infer<typeof AdminMe>;

export type AdminRow = typeof admins.$inferSelect;

export async function createAdmin(
  t: Queryable,
  input: {
    clubId: string;
    email: string;
    role?: string;
    readOnly?: boolean;
    accessExpiresAt?: string | null;
    password?: string | null;
    firstName?: string | null;
    lastName?: string | null;
  },
): Promise<AdminRow> {
  const email = input.email.trim().toLowerCase();
  const [existing] = await t.select({ id: admins.id }).from(admins).where(eq(admins.email, email)).limit(1);
  if (existing) throw new Conflict("EMAIL_TAKEN", { email });
  const [row] = await t
    .insert(admins)
    .values({
      id: newId(),
      club_id: input.clubId,
      email,
      first_name: input.firstName ?? null,
      last_name: input.lastName ?? null,
      role: input.role ?? "admin",
      read_only: input.readOnly ?? false,
      access_expires_at: input.accessExpiresAt ? new Date(input.accessExpiresAt).toISOString() : null,
      password_hash: input.password ? await Bun.password.hash(input.password) : null,
      referral_code: readableCode(8),
      created_at: nowIso(),
    })
    .returning();
  return row;
}

export async function findAdminByEmail(db: Db, email: string): Promise<AdminRow | undefined> {
  const [row] = await db.read.select().from(admins).where(eq(admins.email, email.trim().toLowerCase())).limit(1);
  return row;
}

/** The caller's profile with their club. Any valid key may read it. */
export async function getAdminMe(ctx: Ctx): Promise<AdminMe> {
  const [admin] = await ctx.db
    .prepareRead("admins.byId", (q) =>
      q
        .select()
        .from(admins)
        .where(eq(admins.id, sql.placeholder("id")))
        .limit(1),
    )
    .execute({ id: ctx.actor.adminId });
  if (!admin) throw new NotFound("ADMIN_NOT_FOUND");
  const club = toClubAdmin(await getClubRow(ctx.db, admin.club_id), ctx.actor, !!ctx.stripe);
  return {
    id: admin.id,
    club_id: admin.club_id,
    email: admin.email,
    first_name: admin.first_name,
    last_name: admin.last_name,
    role: admin.role,
    is_superadmin: admin.is_superadmin,
    scopes: ctx.actor.kind === "key" ? ctx.actor.scopes : null,
    read_only: admin.read_only,
    access_expires_at: admin.access_expires_at,
    referral_code: admin.referral_code,
    referral_unlocked: admin.referral_unlocked,
    onboarding_step: admin.onboarding_step,
    club: club as AdminMe["club"],
    onboarding: (admin.onboarding as Record<string, unknown>) ?? {},
  };
}

/** The club's team, for the dashboard (GET /api/team/admins). */
export async function listTeam(ctx: Ctx) {
  const rows = await ctx.db.read.select().from(admins).where(eq(admins.club_id, ctx.clubId));
  return rows.map((a) => ({
    id: a.id,
    email: a.email,
    first_name: a.first_name,
    last_name: a.last_name,
    role: a.role,
    read_only: a.read_only,
    access_expires_at: a.access_expires_at,
    removed_at: a.removed_at,
  }));
}
