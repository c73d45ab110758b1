// What a CLI command is: its words (`keys create`), its flags for node:util parseArgs (strict),
// its positional arguments, and a `run` that returns the one JSON object `--json` prints. Each
// file of scripts/cli/commands/ exports its commands as `commands`; scripts/cli.ts finds them.
import type { Db } from "../../db";
import { allClubIds, findClubByRef } from "../../lib/clubs/internal";
import type { Config } from "../../lib/config";

export type Flag = { type: "string" | "boolean"; short?: string; description: string; placeholder?: string; required?: boolean };
export type Flags = Record<string, Flag>;

/** Parsed flag values: a string flag gives a string, a boolean flag a boolean (absent: undefined). */
export type Values<F extends Flags> = { [K in keyof F]?: F[K]["type"] extends "boolean" ? boolean : string };

export type CliEnv = {
  /** Opens the database (DATABASE_URL) on first use; commands that fail on their flags never touch it. */
  db(): Promise<Db>;
  config: Config;
  /** --json was given: stdout carries the one JSON object, and nothing meant for a person is drawn. */
  json: boolean;
};

export type Command<F extends Flags = Flags, R extends Record<string, unknown> = Record<string, unknown>> = {
  /** The command's words, e.g. `["keys", "create"]`. */
  words: string[];
  summary: string;
  flags: F;
  /** Names of the positional arguments, all required (e.g. `["FILE"]`). */
  args?: string[];
  run(env: CliEnv, input: { flags: Values<F>; args: string[] }): Promise<R>;
  /** Short readable lines for a person (without --json). */
  human(result: R): string;
};

/** Declares a command with its flag types inferred. */
export function command<const F extends Flags, R extends Record<string, unknown>>(spec: Command<F, R>): Command {
  return spec as unknown as Command;
}

/** A wrong command line (unknown command, flag or value): one line on stderr, exit code 2. */
export class UsageError extends Error {}

export function requireFlag(value: string | undefined, name: string): string {
  if (value === undefined || value.trim() === "") throw new UsageError(`missing --${name}`);
  return value;
}

/** An ISO 8601 date or date-time, as given to --access-expires-at or --expires-at. */
export function isoFlag(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) throw new UsageError(`--${name} expects an ISO 8601 date or date-time, got "${value}"`);
  return new Date(ms).toISOString();
}

/** A day YYYY-MM-DD (UTC) that exists, as given to --date or --until. */
export function dayFlag(value: string, name: string): string {
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(value) ||
    Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ||
    new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value
  ) {
    throw new UsageError(`--${name} expects a day YYYY-MM-DD, got "${value}"`);
  }
  return value;
}

/** The flags of a sweep run as of a day (reminders, dunning): --date and --club. */
export const DAY_RUN_FLAGS = {
  date: { type: "string", placeholder: "YYYY-MM-DD", description: "run as if today were this day (UTC)" },
  club: { type: "string", placeholder: "CLUB", description: "only this club (id or slug); default: every club" },
} as const satisfies Flags;

/** What DAY_RUN_FLAGS ask for: the database, the day (default today, UTC), the one club or none (every club). */
export async function dayRun(env: CliEnv, flags: { date?: string; club?: string }): Promise<{ db: Db; today: string; clubId: string | undefined }> {
  const today = dayFlag(flags.date ?? new Date().toISOString().slice(0, 10), "date");
  const db = await env.db();
  return { db, today, clubId: flags.club ? (await clubsOf(db, flags.club))[0] : undefined };
}

/** The clubs a command runs for: the one --club names (id or slug), else every club, in id order. */
export async function clubsOf(db: Db, ref: string | undefined): Promise<string[]> {
  return ref ? [(await findClubByRef(db, ref)).id] : allClubIds(db);
}
