// `admins create`: another admin of a club (full, read-only, or with an end date).
// `admins sign-in-link`: a fresh one-time link into the dashboard, where the admin chooses a new
// password (the first start's link lost or expired, a password forgotten).
import { createAdmin, findAdminByEmail, ROLES } from "../../../lib/auth/admins";
import { adminAccessEnded } from "../../../lib/auth/caller";
import { createSignInLink, SIGN_IN_LINK_HOURS } from "../../../lib/auth/sign-in-links";
import { findClubByRef } from "../../../lib/clubs/internal";
import { NotFound } from "../../../lib/errors";
import { command, isoFlag, requireFlag, UsageError } from "../command";
import { emailFlag } from "./init";

export const commands = [
  command({
    words: ["admins", "create"],
    summary: "Add an admin to a club.",
    flags: {
      club: { type: "string", required: true, placeholder: "C", description: "the club's id or slug" },
      email: { type: "string", required: true, placeholder: "E", description: "the admin's email (unique across clubs)" },
      role: { type: "string", placeholder: "admin", description: `${ROLES.join(", ")} (default admin)` },
      "read-only": { type: "boolean", description: "the admin and their keys can only read" },
      "access-expires-at": { type: "string", placeholder: "T", description: "ISO 8601 time when the admin's access ends" },
      password: { type: "string", placeholder: "P", description: "dashboard password (default: none)" },
    },
    async run(env, { flags }) {
      const clubRef = requireFlag(flags.club, "club");
      const email = emailFlag(flags.email);
      const role = flags.role ?? "admin";
      if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role expects one of ${ROLES.join(", ")}`);
      const accessExpiresAt = isoFlag(flags["access-expires-at"], "access-expires-at");
      const db = await env.db();
      const club = await findClubByRef(db, clubRef);
      const admin = await db.tx((t) =>
        createAdmin(t, { clubId: club.id, email, role, readOnly: flags["read-only"] ?? false, accessExpiresAt, password: flags.password }),
      );
      return { admin_id: admin.id };
    },
    human: (r) => `Admin created: ${r.admin_id}`,
  }),
  command({
    words: ["admins", "sign-in-link"],
    summary: `A one-time link into the dashboard where the admin chooses a new password (works ${SIGN_IN_LINK_HOURS} hours).`,
    flags: {
      email: { type: "string", required: true, placeholder: "E", description: "the admin's email" },
    },
    async run(env, { flags }) {
      const email = emailFlag(flags.email);
      const db = await env.db();
      const admin = await findAdminByEmail(db, email);
      if (!admin || adminAccessEnded(admin, new Date())) throw new NotFound("ADMIN_NOT_FOUND");
      const link = await createSignInLink(db, { adminId: admin.id, baseUrl: env.config.baseUrl });
      return { admin_id: admin.id, url: link.url, expires_at: link.expires_at };
    },
    human: (r) =>
      [
        `Sign-in link: ${r.url}`,
        `It works once, until ${r.expires_at}; earlier links of this admin no longer work.`,
        "Opening it asks for a new password, then signs in.",
      ].join("\n"),
  }),
];
