// `admins create`: another admin of a club (full, read-only, or with an end date).
import { createAdmin, ROLES } from "../../../lib/auth/admins";
import { findClubByRef } from "../../../lib/clubs/internal";
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
];
