// `init`: a new club with its owner admin and an all-edit API key (what the first start does on an
// empty database). An owner given no password gets a one-time sign-in link to choose one.
import { z } from "zod";
import { initClub } from "../../../lib/auth/init";
import { createSignInLink } from "../../../lib/auth/sign-in-links";
import { LOCALES, type Locale } from "../../../lib/i18n";
import { isOneLine } from "../../../lib/schema-types";
import { command, requireFlag, UsageError } from "../command";

export function emailFlag(value: string | undefined): string {
  const email = requireFlag(value, "email").trim();
  if (!z.email().safeParse(email).success || !isOneLine(email)) throw new UsageError(`--email expects an email address, got "${email}"`);
  return email;
}

export const commands = [
  command({
    words: ["init"],
    summary: "Create a club with its owner admin and an all-edit API key (shown once).",
    flags: {
      "club-name": { type: "string", required: true, placeholder: "N", description: "the club's name" },
      email: { type: "string", required: true, placeholder: "E", description: "the owner's email" },
      locale: { type: "string", placeholder: "fr", description: `language of the club's answers (${LOCALES.join(", ")}; default fr)` },
      currency: { type: "string", placeholder: "CHF", description: "ISO 4217 currency code (default: the club's default)" },
      password: { type: "string", placeholder: "P", description: "the owner's dashboard password (default: none, no dashboard login)" },
    },
    async run(env, { flags }) {
      const clubName = requireFlag(flags["club-name"], "club-name").trim();
      if (!isOneLine(clubName)) throw new UsageError("--club-name must be one line of text (no control characters or direction overrides)");
      const email = emailFlag(flags.email);
      if (flags.locale !== undefined && !LOCALES.includes(flags.locale as Locale)) throw new UsageError(`--locale expects one of ${LOCALES.join(", ")}`);
      if (flags.currency !== undefined && !/^[A-Za-z]{3}$/.test(flags.currency)) throw new UsageError("--currency expects a 3-letter ISO 4217 code");
      const db = await env.db();
      const created = await initClub(db, { clubName, email, locale: flags.locale, currency: flags.currency?.toUpperCase(), password: flags.password });
      if (flags.password) return created;
      const link = await createSignInLink(db, { adminId: created.admin_id, baseUrl: env.config.baseUrl });
      return { ...created, sign_in_url: link.url };
    },
    human: (r: { club_id: string; admin_id: string; api_key: string; sign_in_url?: string }) =>
      [
        `Club created: ${r.club_id}`,
        `Owner admin:  ${r.admin_id}`,
        `API key:      ${r.api_key}`,
        ...(r.sign_in_url ? [`Sign in:      ${r.sign_in_url}`, "              (once, within 24 hours: the owner chooses a password there)"] : []),
        "The key is shown this once; keep it somewhere safe.",
      ].join("\n"),
  }),
];
