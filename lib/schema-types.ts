// Field types shared by the areas' zod schemas, so that a date-time is declared one way in every
// request and every answer of the OpenAPI document.
import { z } from "zod";

/** A date-time a client sends: ISO 8601 with its offset (`Z` or `+02:00`). */
export const dateTimeInput = () => z.iso.datetime({ offset: true }).meta({ format: "date-time" });

/** A date-time in an answer: ISO 8601 UTC as stored. */
export const dateTimeOutput = () => z.string().meta({ format: "date-time" });

/**
 * `YYYY-MM-DD`, `days` after today (UTC). Request examples use it, so that an example sent as is
 * from the docs never carries a date that has passed (a membership ending yesterday is refused).
 */
export const daysFromNow = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

// Characters that are no text (issue 18): the controls (\p{Cc}: C0, DEL and C1), the line and paragraph
// separators U+2028/U+2029, and the explicit direction embeddings, overrides and isolates of
// Unicode's bidi algorithm (U+202A..U+202E, U+2066..U+2069). Stored in a name they break the
// lines of CSV, ICS and mail headers, or show "gnp.exe" as "exe.png". The direction marks
// U+200E/U+200F stay: they cannot reorder text, and right-to-left names may carry them.
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
// Multi-line text (descriptions, reasons) keeps tab, line feed and carriage return.
const NOT_TEXT = /(?![\t\n\r])[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** True when `text` may be stored as one line (a name, an email, a title, a city). */
export const isOneLine = (text: string): boolean => !NOT_ONE_LINE.test(text);
/** True when `text` may be stored as multi-line text (line breaks and tabs, nothing else below U+0020). */
export const isPlainText = (text: string): boolean => !NOT_TEXT.test(text);

/**
 * One line of text: every single-line string a client sends goes through it (names, titles, club
 * name, city, codes...). Refused before any trim: a name ending in CR/LF is not silently mended.
 */
export const oneLine = () => z.string().refine(isOneLine, { error: "TEXT_CONTROL_CHARACTER", abort: true });
/** An email address, one line. */
export const emailLine = () => z.email().refine(isOneLine, { error: "TEXT_CONTROL_CHARACTER", abort: true });
/** Multi-line text (a description, a reason): line breaks and tabs allowed, other controls and direction overrides not. */
export const multiLine = () => z.string().refine(isPlainText, { error: "TEXT_CONTROL_CHARACTER", abort: true });
