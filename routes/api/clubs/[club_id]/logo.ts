// PUT /api/clubs/[club_id]/logo — set the club's logo from an image (DELETE removes it)
import { LOGO_MAX_BYTES, logoFileFromBody, removeClubLogo, SVG_DRAW_LIMIT_MS, uploadClubLogo } from "../../../../lib/clubs/logo";
import { ClubAdmin } from "../../../../lib/clubs/schemas";
import { route } from "../../../../server/route";

/** Room for a multipart form's boundaries and headers around a file of the largest size. */
const FORM_OVERHEAD = 64 * 1024;

export const PUT = route({
  summary: "Set the club's logo",
  operationId: "setClubLogo",
  description: [
    "Body: the image itself (`Content-Type: image/png`, `image/jpeg`, `image/webp` or `image/svg+xml`), or a multipart form with the image in `file`. PNG, JPEG, WebP and SVG are accepted, told by the file's bytes, not by the type it is sent as: anything else is a 422 naming `file` (`LOGO_NOT_AN_IMAGE`). At most 2 MB (413 beyond) and 40 million pixels.",
    `An SVG is cleaned (scripts, event handlers, foreign content, links outside the drawing removed) and drawn: every rendition is a PNG. A drawing that takes more than ${SVG_DRAW_LIMIT_MS / 1000} seconds of CPU (filters or repeated elements that cost minutes) is refused with a 422 naming \`file\` (\`LOGO_TOO_COMPLEX\`). The logo is made into the sizes its uses need (pages and mails, Google Wallet's square, Apple Wallet's icon and logo, the printed roster) and served from this service's public address, \`GET /logos/<club_id>/<rendition>.png\`.`,
    "`logo_url`, `logo_square_url` and `logo_horizontal_url` then name those addresses (each with its file's hash as `v`, so a new logo is a new address); `logo_circular_url` is cleared. The club's wallet passes are updated in the background. Answers the club.",
  ].join("\n\n"),
  tags: ["clubs"],
  scope: uploadClubLogo.scope,
  response: ClubAdmin,
  errors: [413],
  bytes: true,
  requestBody: () => {
    const image = { type: "string", contentMediaType: "application/octet-stream", description: "The image's bytes (PNG, JPEG, WebP or SVG), at most 2 MB." };
    return {
      required: true,
      content: {
        // First: the one a page can show as text, and Try it out send as is.
        "image/svg+xml": {
          schema: { type: "string", description: "An SVG drawing: cleaned, then drawn into PNGs." },
          example:
            '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80"><rect width="240" height="80" rx="12" fill="#1D4ED8"/><circle cx="40" cy="40" r="24" fill="#F59E0B"/></svg>',
        },
        "image/png": { schema: image },
        "image/jpeg": { schema: image },
        "image/webp": { schema: image },
        "multipart/form-data": { schema: { type: "object", properties: { file: image }, required: ["file"] } },
      },
    };
  },
  maxBodyBytes: LOGO_MAX_BYTES + FORM_OVERHEAD,
  handler: async ({ ctx, body }) => uploadClubLogo(ctx, { file: await logoFileFromBody(body) }),
});

export const DELETE = route({
  summary: "Remove the club's logo",
  operationId: "removeClubLogo",
  description: "Removes the uploaded logo and clears the four logo fields; the club's wallet passes are updated in the background. Answers the club.",
  tags: ["clubs"],
  scope: removeClubLogo.scope,
  response: ClubAdmin,
  handler: ({ ctx }) => removeClubLogo(ctx, {}),
});
