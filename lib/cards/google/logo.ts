// The plain logo of a club that has none: Google requires a logo on a loyalty class (an image at
// a public address), so we serve a square in the club's secondary colour, which Google shows as
// a disc beside the club's name. GET /c/logo/<club_id> (public: a colour is no secret).
import type { PublicCtx } from "../../context";
import { NotFound } from "../../errors";
import { solidPng } from "../png";
import { clubCardView, loadCardClub } from "../view";

/** Google's recommended logo size. */
const SIZE = 660;

const byColour = new Map<string, Uint8Array<ArrayBuffer>>();

/** The plain logo of club `clubId`; 404 `CLUB_NOT_FOUND` when there is no such club. */
export async function placeholderLogo(ctx: PublicCtx, clubId: string): Promise<Uint8Array<ArrayBuffer>> {
  const club = await loadCardClub(ctx.db.read, clubId);
  if (!club) throw new NotFound("CLUB_NOT_FOUND");
  const colour = clubCardView(club).colors.secondary.toUpperCase();
  let png = byColour.get(colour);
  if (!png) {
    png = new Uint8Array(solidPng(SIZE, colour));
    byColour.set(colour, png);
  }
  return png;
}
