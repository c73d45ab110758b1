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
