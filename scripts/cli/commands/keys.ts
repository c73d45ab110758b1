// `keys create | list | revoke`: API keys of an admin, shown once at creation, stored as a hash.
// `keys list` also shows the OAuth grants (assistants allowed through OAuth), `grants revoke` ends one.
import { findAdminByEmail } from "../../../lib/auth/admins";
import { clientLabel } from "../../../lib/auth/caller";
import { type ApiKeyItem, createApiKey, listApiKeys, revokeApiKey } from "../../../lib/auth/keys";
import { allScopes, parseScopeList } from "../../../lib/access";
import { findClubByRef } from "../../../lib/clubs/internal";
import { NotFound } from "../../../lib/errors";
import { listGrants, revokeGrant } from "../../../lib/oauth/grants";
import { isOneLine } from "../../../lib/schema-types";
import { command, isoFlag, requireFlag, UsageError } from "../command";
import { emailFlag } from "./init";

function status(key: ApiKeyItem, now = Date.now()): string {
  if (key.revoked_at) return "revoked";
  if (key.expires_at && Date.parse(key.expires_at) <= now) return "expired";
  return "active";
}

const scopesText = (scopes: Record<string, string>) =>
  Object.entries(scopes)
    .map(([a, l]) => `${a}:${l}`)
    .join(",");

export const commands = [
  command({
    words: ["keys", "create"],
    summary: "Create an API key for an admin (shown once).",
    flags: {
      email: { type: "string", required: true, placeholder: "E", description: "the admin's email" },
      club: { type: "string", placeholder: "C", description: "the club's id or slug (checks the admin belongs to it)" },
      scopes: {
        type: "string",
        placeholder: "members:edit,events:view",
        description: "area:level list (default: every area at edit; view for a read-only admin)",
      },
      "expires-at": { type: "string", placeholder: "T", description: "ISO 8601 time when the key stops working (default: never)" },
      name: { type: "string", placeholder: "N", description: "a label for the key" },
    },
    async run(env, { flags }) {
      const email = emailFlag(flags.email);
      let scopes = flags.scopes === undefined ? undefined : parseScopeList(flags.scopes);
      if (scopes === null || (scopes && !Object.keys(scopes).length)) {
        throw new UsageError("--scopes expects area:level pairs separated by commas, e.g. members:edit,events:view");
      }
      const expiresAt = isoFlag(flags["expires-at"], "expires-at");
      if (flags.name !== undefined && !isOneLine(flags.name))
        throw new UsageError("--name must be one line of text (no control characters or direction overrides)");
      const db = await env.db();
      const admin = await findAdminByEmail(db, email);
      if (!admin || admin.removed_at) throw new NotFound("ADMIN_NOT_FOUND");
      if (flags.club !== undefined && (await findClubByRef(db, flags.club)).id !== admin.club_id) throw new NotFound("ADMIN_NOT_FOUND");
      // Without --scopes: everything the admin may do (a read-only admin's keys are view-only).
      scopes ??= allScopes(admin.read_only ? "view" : "edit");
      const key = await createApiKey(db, { adminId: admin.id, scopes, name: flags.name, expiresAt });
      return { id: key.id, prefix: key.prefix, api_key: key.api_key };
    },
    human: (r) => [`API key: ${r.api_key}`, `id ${r.id}, prefix ${r.prefix}`, "The key is shown this once; keep it somewhere safe."].join("\n"),
  }),
  command({
    words: ["keys", "list"],
    summary: "List a club's API keys (revoked ones included).",
    flags: { club: { type: "string", required: true, placeholder: "C", description: "the club's id or slug" } },
    async run(env, { flags }) {
      const db = await env.db();
      const club = await findClubByRef(db, requireFlag(flags.club, "club"));
      return { keys: await listApiKeys(db, club.id), grants: await listGrants(db, club.id) };
    },
    human: (r) =>
      (r.keys.length ? r.keys.map((k) => [k.prefix, status(k).padEnd(7), k.id, scopesText(k.scopes), k.name ?? ""].join("  ")).join("\n") : "No keys.") +
      (r.grants.length
        ? `\nOAuth grants:\n${r.grants
            .map((g) => [clientLabel(g.client_name), (g.revoked_at ? "revoked" : "active").padEnd(7), g.id, scopesText(g.scopes)].join("  "))
            .join("\n")}`
        : ""),
  }),
  command({
    words: ["grants", "revoke"],
    summary: "Revoke an OAuth grant by its id (from keys list); its access and refresh tokens answer 401 at once.",
    flags: {},
    args: ["GRANT_ID"],
    async run(env, { args }) {
      await revokeGrant(await env.db(), args[0]);
      return { revoked: true as const };
    },
    human: () => "Grant revoked.",
  }),
  command({
    words: ["keys", "revoke"],
    summary: "Revoke an API key by its prefix or id; it answers 401 from the next request on.",
    flags: {},
    args: ["PREFIX_OR_ID"],
    async run(env, { args }) {
      await revokeApiKey(await env.db(), args[0]);
      return { revoked: true as const };
    },
    human: () => "Key revoked.",
  }),
];
