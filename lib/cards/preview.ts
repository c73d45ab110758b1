// The card's preview for the dashboard's card appearance page (DESIGN.md section 16): the club's
// card as stored, with the appearance values an admin is typing laid over it (nothing saved),
// worn by a sample member and drawn by the web card itself (lib/cards/web), so what the preview
// shows is what members will see.
import type { Ctx } from "../context";
import { verb } from "../context";
import { NotFound } from "../errors";
import { CardBackField } from "../clubs/schemas";
import { todayUtc } from "../members/status";
import { type CardClub, type CardView, clubCardView, formatDate, loadCardClub } from "./view";
import { webCardHtml } from "./web";

/** The club fields a preview may override: the appearance fields of the form, all read by the card. */
export const CARD_PREVIEW_FIELDS = [
  "primary_color",
  "secondary_color",
  "card_label_color",
  "card_welcome_message",
  "card_custom_link_label",
  "card_custom_link_url",
  "card_barcode_format",
  "card_sharing_prohibited",
  "card_back_fields",
] as const satisfies readonly (keyof CardClub)[];
export type CardPreviewField = (typeof CARD_PREVIEW_FIELDS)[number];

export type CardPreviewInput = {
  /** Unsaved values (a bad colour or link falls back as on a member's card: the card never breaks). */
  overrides: Partial<Record<CardPreviewField, unknown>>;
  /** Who wears the sample card: a name in the club's language, a tier name or null. */
  sample: { name: string; tierName: string | null };
};

/** Back fields that parse, the others left out (the form may hold a half-typed one). */
function backFields(value: unknown): CardBackField[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw) => {
    const parsed = CardBackField.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The web card page of a sample member of the caller's club, with `overrides` applied. */
export const previewCard = verb("card:view", async function previewCard(ctx: Ctx, input: CardPreviewInput): Promise<string> {
  const stored = await loadCardClub(ctx.db.read, ctx.clubId);
  if (!stored) throw new NotFound("CLUB_NOT_FOUND");
  const club = { ...stored } as Record<string, unknown>;
  for (const name of CARD_PREVIEW_FIELDS) if (input.overrides[name] !== undefined) club[name] = input.overrides[name];
  const base = clubCardView(club as CardClub);
  // A sample valid to the end of next year: an active card, whatever today is.
  const end = `${Number(todayUtc().slice(0, 4)) + 1}-12-31`;
  const fields = backFields(club.card_back_fields);
  const card: CardView = {
    ...base,
    holderName: input.sample.name,
    status: "active",
    validThrough: end,
    tierName: input.sample.tierName,
    validUntil: formatDate(end, base.locale, base.country),
    code: "SAMPLE2026",
    backFields: fields,
    walletFields: fields.filter((f) => f.label || f.value).map((f) => ({ label: f.label, value: f.value })),
  };
  return webCardHtml(card, { apple: null, google: null });
});
