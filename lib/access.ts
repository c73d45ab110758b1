// Who may do what: the scopes of an API key (SPEC "Authentication" 3, DESIGN.md section 4: for
// each area a level, `view` or `edit`, edit including view; an absent area means no access), the
// caller that holds them, and the one check of a scope. Below every area of lib/: each verb's
// guard (`verb` in lib/context.ts) and the pipeline's authorization read it.
import { z } from "zod";
import { Forbidden } from "./errors";
import type { Locale } from "./i18n";

export const AREAS = ["members", "finances", "events", "communication", "access_control", "page", "card"] as const;
export const LEVELS = ["view", "edit"] as const;
export type Area = (typeof AREAS)[number];
export type Level = (typeof LEVELS)[number];
export type Scope = `${Area}:${Level}`;
export type Scopes = Partial<Record<Area, Level>>;

export const ScopesSchema = z
  .partialRecord(z.enum(AREAS), z.enum(LEVELS))
  .meta({ description: "Level (`view` or `edit`) per area; an absent area means no access." });

export function allScopes(level: Level): Scopes {
  return Object.fromEntries(AREAS.map((a) => [a, level])) as Scopes;
}

export function hasScope(scopes: Scopes, scope: Scope): boolean {
  const [area, level] = scope.split(":") as [Area, Level];
  const held = scopes[area];
  return held === "edit" || (held === "view" && level === "view");
}

/** A read-only admin's keys are view-only whatever they were created with. */
export function capToAdmin(scopes: Scopes, readOnly: boolean): Scopes {
  if (!readOnly) return scopes;
  return Object.fromEntries(Object.keys(scopes).map((a) => [a, "view"])) as Scopes;
}

/** Parses `members:edit,events:view` (the CLI's form). Returns null on any unknown part. */
export function parseScopeList(text: string): Scopes | null {
  const scopes: Scopes = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [area, level] = part.split(":");
    if (!AREAS.includes(area as Area) || !LEVELS.includes(level as Level)) return null;
    const prev = scopes[area as Area];
    scopes[area as Area] = prev === "edit" ? "edit" : (level as Level);
  }
  return scopes;
}

/**
 * Who is calling: an API key (acting as the admin who created it, within its scopes) or a
 * dashboard session; or the system itself (`systemCaller`: a Stripe event records a payment
 * through the verb an admin would use), for whom no admin acted.
 */
export type Caller = AdminCaller | SystemCaller;

type CallerBase = {
  clubId: string;
  locale: Locale;
  /** Effective scopes: the key's, capped by its admin's rights. */
  scopes: Scopes;
  readOnly: boolean;
  isSuperadmin: boolean;
  keyId: string | null;
  /** Display prefix of the key (`mk_live_` + 4), never the key; `oauth:<client name>` for an OAuth token. */
  keyPrefix: string | null;
  /** The OAuth client acting, when the caller is an OAuth access token (then `keyId` is its grant's id). */
  clientName?: string;
};

export type AdminCaller = CallerBase & { kind: "key" | "session"; adminId: string };
export type SystemCaller = CallerBase & { kind: "system"; adminId: null };

/** The system acting on `clubId` with the scopes `scopes` (what an event from the payment provider may do). */
export function systemCaller(clubId: string, locale: Locale, scopes: Scopes): SystemCaller {
  return { kind: "system", adminId: null, clubId, locale, scopes, readOnly: false, isSuperadmin: false, keyId: null, keyPrefix: null };
}

/** Whether `actor` may revoke a credential (an API key, an OAuth grant) of admin `ownerId`: their own, or anyone's with access_control:edit. */
export const mayRevokeCredentialOf = (actor: Caller, ownerId: string): boolean => ownerId === actor.adminId || actor.scopes.access_control === "edit";

/** What a verb or route needs: one scope, or several that must all be held (confirm a registration: events:edit and finances:edit). */
export type Needs = Scope | readonly Scope[];

export const scopeList = (needs: Needs | undefined): Scope[] => (needs === undefined ? [] : typeof needs === "string" ? [needs] : [...needs]);

/** The one place a scope is checked: 403 `SCOPE_MISSING` naming the first scope the caller lacks. */
export function requireScope(actor: Caller, ...scopes: Scope[]): void {
  for (const scope of scopes) if (!hasScope(actor.scopes, scope)) throw new Forbidden("SCOPE_MISSING", { scope });
}
