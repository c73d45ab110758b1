// The club's shapes (SPEC "Club", "Club update payload", "CardBackField", "CardLocation"), built
// from lib/clubs/fields.ts. These zod schemas validate requests, document the OpenAPI
// components and declare the MCP tools' parameters.
import { z } from "zod";
import type { clubs } from "../../db/schema";
import { LOCALES } from "../i18n";
import { isValidIban } from "../iban";
import { emailLine, multiLine, oneLine } from "../schema-types";
import { CLUB_FIELDS, type ClubField, UPDATE_ONLY_FIELDS, type UpdateOnlyColumn } from "./fields";

export const CARD_BACK_FIELD_TYPES = ["text", "number", "link", "email", "phone"] as const;
export const BARCODE_FORMATS = ["qr", "pdf417", "aztec", "code128"] as const;
export type BarcodeFormat = (typeof BARCODE_FORMATS)[number];

const optStr = (max = 2000) => oneLine().max(max).nullish();
const optText = (max = 2000) => multiLine().max(max).nullish();

export const CardBackField = z
  .object({
    type: z.enum(CARD_BACK_FIELD_TYPES),
    label: oneLine().max(200).default(""),
    value: multiLine().max(2000).default(""),
    link_text: optStr(200),
    is_perk: z.boolean().default(false).meta({ description: "A partner benefit; allowed on any type." }),
    partner_logo_url: optStr(),
    partner_address: optText(),
    partner_website: optStr(),
    partner_email: optStr(),
    partner_phone: optStr(),
    partner_hours: optText(),
    redeem_instructions: optText(),
    tier_ids: z.array(z.string()).nullish(),
  })
  .meta({ id: "CardBackField", description: "A field on the back of the wallet card; `is_perk` marks a partner benefit." });

export const CardLocation = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    address: oneLine().max(500).nullish(),
    label: oneLine().max(200).nullish(),
  })
  .meta({ id: "CardLocation" });

export type CardBackField = z.infer<typeof CardBackField>;

/** Legacy rule (SPEC "CardBackField"): type `perk` reads as `text` with is_perk true. */
function normalizePerk(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || (raw as { type?: unknown }).type !== "perk") return raw;
  return { ...raw, type: "text", is_perk: true };
}

export function readCardBackFields(stored: unknown): CardBackField[] | null {
  if (!Array.isArray(stored)) return null;
  return stored.map((raw) => CardBackField.parse(normalizePerk(raw)));
}

function outputType(field: ClubField): z.ZodType {
  if (field.name === "card_back_fields") return z.array(CardBackField);
  if (field.name === "card_locations") return z.array(CardLocation);
  if (field.name === "renewal_reminder_days" || field.name === "dunning_days") return z.array(z.int());
  switch (field.kind) {
    case "integer":
      return z.int();
    case "number":
      return z.number();
    case "boolean":
      return z.boolean();
    case "json":
      return field.name === "payment_methods_enabled" ? z.array(z.string()) : z.array(z.record(z.string(), z.unknown()));
    case "datetime":
      return z.string().meta({ format: "date-time" });
    case "date":
      return z.string().meta({ format: "date" });
    default:
      return z.string();
  }
}

/**
 * The one rule of a link the club gives (card link, logos, partner sites): http(s), and none of
 * the characters RFC 3986 says must be percent-encoded that would break out of an HTML attribute
 * (quotes, angle brackets) or a line (spaces). Checked when stored and again when a card shows it.
 */
export const HTTP_URL = /^https?:\/\/[^\s"'<>]+$/i;

/** How the club takes new members (DESIGN.md section 13): paying at once, after an approval, or not at all. */
export const MEMBERSHIP_MODES = ["open", "application", "closed"] as const;
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** The club's text fields that may hold line breaks; every other one is one line (lib/schema-types). */
const MULTI_LINE = new Set<string>(["description", "application_instructions", "card_welcome_message"]);

function inputType(field: ClubField): z.ZodType {
  switch (field.check) {
    case "color":
      return z.string().regex(/^#[0-9A-Fa-f]{6}$/, { error: "INVALID_COLOR" });
    case "url":
      return oneLine().max(2000).regex(HTTP_URL, { error: "INVALID_URL" });
    case "email":
      return emailLine().max(320);
    case "currency":
      // An ISO 4217 code the runtime knows (prices, invoices and Stripe are in it): "ZZZ" was stored before.
      return z.string().refine((c) => CURRENCIES.has(c), { error: "INVALID_CURRENCY" });
    case "membership_mode":
      return z.enum(MEMBERSHIP_MODES);
    case "iban":
      // Spaces between the groups are kept as typed; the check sum is what catches a typo.
      return oneLine()
        .max(50)
        .refine(isValidIban, { error: "INVALID_IBAN" })
        .meta({ description: "An IBAN (spaces allowed) whose check digits are right; invoices' QR codes carry it." });
    case "country":
      return z.string().regex(/^[A-Z]{2}$/);
    case "locale":
      return z.enum(LOCALES);
    case "barcode":
      return z.enum(BARCODE_FORMATS);
    case "latitude":
      return z.number().min(-90).max(90);
    case "longitude":
      return z.number().min(-180).max(180);
    case "percent":
      return z.int().min(0).max(100);
    case "nonnegative":
      return z.int().min(0);
    case "months":
      return z.int().min(1).max(120);
    case "hold_hours":
      return z
        .int()
        .min(1)
        .max(720)
        .meta({ description: "Hours an unpaid (`pending`) public registration holds its place before it is cancelled and the place freed (1..720)." });
    case "card_back_fields":
      return z.array(z.preprocess(normalizePerk, CardBackField)).max(50);
    case "card_locations":
      return z.array(CardLocation).max(10);
    case "reminder_days":
      // Days before the end (DESIGN.md section 14); stored sorted, each once.
      return z
        .array(z.int().min(1).max(365))
        .max(5)
        .transform((days) => [...new Set(days)].sort((a, b) => b - a))
        .meta({ description: "Days before membership_end a renewal reminder is sent: at most 5, each 1..365." });
    case "dunning_days":
      // One day per reminder level after due_on (DESIGN.md section 20); dunning_level is 0..3.
      return z
        .array(z.int().min(1).max(365))
        .max(3)
        .refine((days) => days.every((d, i) => i === 0 || d > days[i - 1]), { error: "DUNNING_DAYS_ORDER" });
    case "grace_days":
      return z.int().min(0).max(365).meta({ description: "Days a member stays `active` past membership_end." });
    case "account":
      // The journal writes it as is into Banana's and DATEV's account columns (lib/books).
      return z
        .string()
        .regex(/^\d{1,10}$/, { error: "INVALID_ACCOUNT_NUMBER" })
        .meta({ description: "An account number of the club's chart: 1 to 10 digits." });
  }
  if (field.kind === "string") return (MULTI_LINE.has(field.name) ? multiLine() : oneLine()).max(field.name === "name" ? 200 : 5000);
  if (field.kind === "json") return outputType(field);
  return outputType(field);
}

const shownFields = CLUB_FIELDS;

/** What a field does, where its name does not say it all (the Club's and ClubUpdate's descriptions). */
const FIELD_NOTES: Partial<Record<string, string>> = {
  dunning_days: "Days after an invoice's due_on each reminder level is mailed (ascending, at most 3; [] sends none). Default [10, 30].",
  dunning_fee_cents: "Added once to an overdue invoice as a line, with its second reminder (0: none). Default 0.",
  suspend_after_dunning: "Suspends the member when their invoice reaches the last reminder level. Default false.",
  renewal_invoices: "The first renewal reminder makes the member's membership invoice (as the dues run does) and attaches its PDF. Default false.",
};
const noted = (f: ClubField, type: z.ZodType, prefix = "") => {
  const note = FIELD_NOTES[f.name];
  return note || prefix ? type.meta({ description: [note, prefix].filter(Boolean).join(" ") }) : type;
};

export const ClubAdmin = z
  .object({
    id: z.uuid(),
    ...Object.fromEntries(
      shownFields.map((f) => {
        const type = f.nullable ? outputType(f).nullable() : outputType(f);
        return [f.name, f.readScope ? noted(f, type.optional(), `Only for callers with \`${f.readScope}\`; absent otherwise.`) : noted(f, type)];
      }),
    ),
    created_at: z.string().meta({ format: "date-time" }),
    updated_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "ClubAdmin", description: "The club, as its admins see it." });

export const ClubUpdate = z
  .object(
    Object.fromEntries(
      [...CLUB_FIELDS, ...UPDATE_ONLY_FIELDS]
        .filter((f) => f.writable)
        .map((f) => {
          const base = f.name === "name" ? (inputType(f) as z.ZodString).min(1) : inputType(f);
          return [f.name, noted(f, base.nullish())];
        }),
    ),
  )
  .meta({
    id: "ClubUpdate",
    description:
      "Every field optional. null clears a field that may be empty and leaves the others unchanged. Fields not listed here (id, slug, logos, payment state, ...) cannot be written.",
    examples: [{ description: "Our club's members, events and cards.", contact_email: "contact@example.org", city: "Lausanne", primary_color: "#1F2937" }],
  });

/** The Club: every column but those only ClubUpdate has, the back fields read as CardBackFields. */
export type ClubAdmin = Omit<typeof clubs.$inferSelect, UpdateOnlyColumn | "card_back_fields"> & { card_back_fields: CardBackField[] | null };
export type ClubUpdate = Record<string, unknown>;

/** An http(s) address (trimmed), or null: anything else (javascript:, data:, quotes...) is no link on any card. */
export function httpUrl(value: unknown): string | null {
  const v = typeof value === "string" ? value.trim() : "";
  return v && HTTP_URL.test(v) ? v : null;
}
