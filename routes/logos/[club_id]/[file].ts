// GET /logos/[club_id]/[file] — a rendition of the club's uploaded logo (PNG, public, cached by its ETag)
import { z } from "zod";
import { LOGO_RATE, LOGO_VARIANTS, type LogoVariant, logoFile } from "../../../lib/clubs/logo";
import { route } from "../../../server/route";

const FILES = LOGO_VARIANTS.map((v) => `${v}.png`) as [string, ...string[]];

export const GET = route({
  summary: "A rendition of a club's logo",
  operationId: "getClubLogo",
  description:
    "The club's uploaded logo (PUT /api/clubs/<club_id>/logo) as a PNG: `logo.png` (at most 512 px, the pages and mails), `square.png` (660 px, Google Wallet), `horizontal.png` (at most 480 x 150), and Apple Wallet's sizes. With `ETag`; kept a year when `v` is the file's hash (the address the club's `logo_*` fields name). 404 `LOGO_NOT_FOUND` when the club has none.",
  tags: ["clubs"],
  auth: "public",
  rateLimit: LOGO_RATE,
  params: z.object({ club_id: z.uuid(), file: z.enum(FILES) }),
  query: z.object({ v: z.string().max(64).optional() }),
  raw: true,
  files: { "image/png": "The logo at that size." },
  errors: [404],
  handler: ({ ctx, params, query, request }) =>
    logoFile(ctx, {
      club_id: params.club_id,
      variant: params.file.replace(/\.png$/, "") as LogoVariant,
      v: query.v,
      ifNoneMatch: request.headers.get("if-none-match"),
    }),
});
