// The printed roster (SPEC rule 2): an A4 PDF of the members sorted by last then first name,
// columns nom, prénom, email, fin abonnement, statut, with the club's name, logo and the date on top
// and "page n / total" at the foot, in the club's language. It is written a few pages at a time
// as the download is read (lib/pdf), in DejaVu Sans so that names outside Latin-1 print. The
// order is the database's (`members.sort_name`, db/text), so rows arrive sorted.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Locale } from "../i18n";
import { PdfDocument, type PdfImage } from "../pdf/document";
import { TrueTypeFont } from "../pdf/truetype";
import type { MemberRow } from "./internal";
import { derivedStatus } from "./status";
import { ROSTER_TEXTS, type RosterTexts } from "../i18n/texts";

let font: TrueTypeFont | null = null;
/** DejaVu Sans from the `dejavu-fonts-ttf` npm package (installed with the project, no system font needed), read once. */
function rosterFont(): TrueTypeFont {
  if (!font) font = new TrueTypeFont(readFileSync(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")));
  return font;
}

export type RosterRow = Pick<MemberRow, "id" | "first_name" | "last_name" | "email" | "membership_end" | "payment_status">;

/**
 * Where the roster's rows come from: `total` members (known before the first page, for "page n /
 * total"), handed over by `next()` in roster order a batch at a time, an empty batch at the end.
 */
export type RosterSource = { total: number; next(): Promise<RosterRow[]> };

// The layout, in millimetres from the top left of the page.
const LEFT = 15;
const RIGHT = 195;
/** Font size of the headings and the rows, points. */
const SIZE = 9;
/** The least room between the text of two columns. */
const GAP = 4;
/** How the last name, first name and email columns share what the end date and the status leave. */
const SHARES = [34, 30, 60];
/** The box the club's logo is drawn in at the top right, mm: above the column headings. */
const LOGO_BOX = { width: 45, height: 17 };
const FIRST_ROW = 37;
const ROW_HEIGHT = 6;
const LAST_ROW = 280;
export const ROWS_PER_PAGE = Math.floor((LAST_ROW - FIRST_ROW) / ROW_HEIGHT) + 1;
/** Pages sent per read of the stream: large enough to keep chunks worth sending, small enough to hold. */
const PAGES_PER_CHUNK = 8;

/**
 * Where each column starts and how wide its text may be, for `text`'s language: the end date and
 * the status take what their heading and their longest value measure in the font, plus the gap
 * ("Mitgliedschaftsende" is wider than a date); the names and the email share the rest.
 */
function columns(doc: PdfDocument, text: RosterTexts): { x: number; room: number }[] {
  const need = (...values: string[]) => Math.max(...values.map((v) => doc.textWidth(v, SIZE))) + GAP;
  const end = need(text.headers[3], "0000-00-00");
  const status = need(text.headers[4], ...Object.values(text.status));
  const rest = RIGHT - LEFT - end - status;
  const total = SHARES.reduce((a, b) => a + b, 0);
  const widths = [...SHARES.map((share) => (rest * share) / total), end, status];
  return widths.map((width, i) => ({ x: LEFT + widths.slice(0, i).reduce((a, b) => a + b, 0), room: width - GAP }));
}

/**
 * The roster as a PDF stream. Each read of the stream draws, compresses and sends the next few
 * pages, taking their rows from `source` as it goes: what is held is a batch of rows and the
 * page being drawn, whatever the size of the club. At most `source.total` members are printed.
 */
export function rosterPdf(
  source: RosterSource,
  club: { name: string; logo?: PdfImage | null },
  locale: Locale,
  today: string,
  now = new Date(),
): ReadableStream<Uint8Array> {
  const text = ROSTER_TEXTS[locale];
  const logo = club.logo ?? null;
  const doc = new PdfDocument(rosterFont(), { title: `${club.name} — ${text.title}`, lang: locale, created: now }, logo);
  const cols = columns(doc, text);
  // The logo at the top right, in its own proportions within LOGO_BOX; the name takes what is left.
  const scale = logo ? Math.min(LOGO_BOX.width / logo.width, LOGO_BOX.height / logo.height) : 0;
  const logoBox = logo ? { width: logo.width * scale, height: logo.height * scale } : null;
  const clubName = doc.fit(club.name, RIGHT - LEFT - (logoBox ? logoBox.width + GAP : 0), 14);
  const pages = Math.max(1, Math.ceil(source.total / ROWS_PER_PAGE));
  let next = 0;
  let left = source.total;
  let batch: RosterRow[] = [];
  let exhausted = false;
  /** The next page's rows. */
  const take = async (): Promise<RosterRow[]> => {
    while (batch.length < ROWS_PER_PAGE && !exhausted) {
      const more = await source.next();
      if (more.length) batch = batch.concat(more);
      else exhausted = true;
    }
    const rows = batch.slice(0, Math.min(ROWS_PER_PAGE, left));
    batch = batch.slice(rows.length);
    left -= rows.length;
    return rows;
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(doc.start());
    },
    async pull(controller) {
      const end = Math.min(pages, next + PAGES_PER_CHUNK);
      for (; next < end; next++) {
        const n = next;
        const rows = await take();
        controller.enqueue(
          doc.page((page) => {
            if (logoBox) page.image(RIGHT - logoBox.width, 8, logoBox.width, logoBox.height);
            page.text(clubName, LEFT, 15, 14);
            page.text(`${text.title} — ${today}`, LEFT, 21, 9);
            text.headers.forEach((h, i) => {
              page.text(doc.fit(h, cols[i].room, SIZE), cols[i].x, 30, SIZE);
            });
            page.line(LEFT, 32, RIGHT, 32);
            rows.forEach((m, row) => {
              const cells = [m.last_name, m.first_name, m.email, m.membership_end, text.status[derivedStatus(m, today)]];
              cells.forEach((c, i) => {
                page.text(doc.fit(c, cols[i].room, SIZE), cols[i].x, FIRST_ROW + row * ROW_HEIGHT, SIZE);
              });
            });
            page.text(text.page.replace("{n}", String(n + 1)).replace("{total}", String(pages)), RIGHT, 290, 8, { align: "right" });
          }),
        );
      }
      if (next >= pages) {
        controller.enqueue(doc.finish());
        controller.close();
      }
    },
  });
}
