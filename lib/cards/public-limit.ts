// The rate of the public card routes (/c/<serial>, its .pkpass and Google links, /c/logo/<club>):
// no credentials, and a .pkpass signs a pass and a Google link signs a JWT, so each client
// address gets CARD_RATE_PER_MINUTE requests a minute over all of them together (DESIGN.md
// section 11: public routes per address). A club night puts every member behind one Wi-Fi
// address: 300 a minute lets a few hundred members open their card within a minute or two.
import type { AddressRate } from "../ratelimit";

/** Requests a minute per client address over every /c/* route. */
export const CARD_RATE_PER_MINUTE = 300;

/** The one rate every /c/* route declares: one count per address over all of them. */
export const CARD_RATE: AddressRate = { scope: "cards", perMinute: CARD_RATE_PER_MINUTE };
