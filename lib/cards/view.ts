// What a member's card shows, in one place for the web card, the Apple pass and the Google card.
//
// CARD_CLUB_FIELDS is every club field a card reads: the card loader selects exactly these
// columns, so a renderer cannot read another one (it is not in the row), and a change of any of
// them updates the club's passes (lib/cards/pass-updates). A field added to a card is added here.
export const CARD_CLUB_FIELDS = [
  "name",
  "locale",
  // The validity date's format: `fr-CH` style (web card, Apple), Google's countryCode.
  "country",
  // The holder's name: first-last or last-first.
  "name_order",
  "primary_color",
  // The web card's accents; Google's placeholder logo.
  "secondary_color",
  "card_label_color",
  "logo_url",
  "logo_square_url",
  "logo_circular_url",
  "card_back_fields",
  "card_locations",
  "card_geolocation_enabled",
  "card_custom_link_url",
  "card_custom_link_label",
  "card_welcome_message",
  "card_barcode_format",
  "card_sharing_prohibited",
] as const;

export type CardClubField = (typeof CARD_CLUB_FIELDS)[number];
