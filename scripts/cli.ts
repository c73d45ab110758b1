// The admin CLI (DESIGN.md section 3): `bun run cli <command> [flags] [--json]`.
//
// Commands live in scripts/cli/commands/*.ts, each file exporting `commands` (see
// scripts/cli/command.ts); this file finds them, so adding a command (`import members`,
// `seed demo`) means adding a file there, nothing here. Flags are parsed strictly with
// node:util parseArgs. The database is DATABASE_URL (default data/club.db).
//
// Output: short readable lines, or with --json exactly one JSON object on stdout.
// Exit codes: 0 done; 1 refused by a business rule (an AppError: one English line on stderr and,
// with --json, `{"error": {"code", "detail"}}` on stdout) or an unexpected failure; 2 wrong
// command line (unknown command, unknown or missing flag, bad value).
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Db, openDb } from "../db";
import { loadConfig } from "../lib/config";
import { AppError, ValidationFailed } from "../lib/errors";
import { t } from "../lib/i18n";
import { type Command, type Flags, UsageError } from "./cli/command";

const COMMANDS_DIR = join(import.meta.dir, "cli", "commands");

export async function loadCommands(): Promise<Command[]> {
  const files = [...new Bun.Glob("*.ts").scanSync(COMMANDS_DIR)].sort();
  const all: Command[] = [];
  for (const file of files) {
    const mod = (await import(join(COMMANDS_DIR, file))) as { commands?: Command[] };
    for (const cmd of mod.commands ?? []) {
      if (all.some((c) => c.words.join(" ") === cmd.words.join(" "))) throw new Error(`CLI command "${cmd.words.join(" ")}" is defined twice`);
      all.push(cmd);
    }
  }
  return all;
}

function usageLine(cmd: Command): string {
  const parts = [...cmd.words];
  for (const arg of cmd.args ?? []) parts.push(arg);
  for (const [name, flag] of Object.entries(cmd.flags)) {
    const text = flag.type === "boolean" ? `--${name}` : `--${name} ${flag.placeholder ?? "VALUE"}`;
    parts.push(flag.required ? text : `[${text}]`);
  }
  parts.push("[--json]");
  return parts.join(" ");
}

function help(commands: Command[]): string {
  return [
    "Usage: bun run cli <command> [flags] [--json]",
    "",
    "Commands:",
    ...commands.flatMap((c) => [`  ${usageLine(c)}`, `      ${c.summary}`]),
    "",
    "--json prints one JSON object and nothing else on stdout. DATABASE_URL chooses the database (default data/club.db).",
    "Exit codes: 0 done, 1 refused (business rule), 2 wrong command line.",
  ].join("\n");
}

function commandHelp(cmd: Command): string {
  const lines = [`Usage: bun run cli ${usageLine(cmd)}`, "", cmd.summary];
  const flags = Object.entries(cmd.flags);
  if (flags.length) lines.push("", ...flags.map(([name, f]) => `  --${name}${f.type === "string" ? ` ${f.placeholder ?? "VALUE"}` : ""}: ${f.description}`));
  lines.push("  --json: print one JSON object on stdout");
  return lines.join("\n");
}

/** The command whose words start `argv` (the longest match), or a UsageError. */
function findCommand(commands: Command[], argv: string[]): Command {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith("-")) break;
    words.push(a);
  }
  const matches = commands.filter((c) => c.words.every((w, i) => words[i] === w)).sort((a, b) => b.words.length - a.words.length);
  if (matches.length) return matches[0];
  const group = commands.filter((c) => c.words[0] === words[0]);
  if (words.length && group.length) {
    throw new UsageError(`unknown command "${words.slice(0, 2).join(" ")}"; "${words[0]}" takes: ${group.map((c) => c.words.slice(1).join(" ")).join(", ")}`);
  }
  throw new UsageError(words.length ? `unknown command "${words[0]}"; see "bun run cli help"` : `no command given; see "bun run cli help"`);
}

function parseFlags(cmd: Command, rest: string[]) {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = { json: { type: "boolean" }, help: { type: "boolean", short: "h" } };
  for (const [name, flag] of Object.entries(cmd.flags as Flags)) options[name] = { type: flag.type, ...(flag.short ? { short: flag.short } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options, strict: true, allowPositionals: true });
  } catch (err) {
    // node:util's messages go on with advice about "--"; keep their first sentence.
    const message = String((err as Error).message)
      .split("\n")[0]
      .split(". To specify")[0];
    throw new UsageError(`${message} (${usageLine(cmd)})`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { help: true, values, args: parsed.positionals };
  const expected = cmd.args ?? [];
  if (parsed.positionals.length < expected.length) throw new UsageError(`missing ${expected.slice(parsed.positionals.length).join(" ")} (${usageLine(cmd)})`);
  if (parsed.positionals.length > expected.length) throw new UsageError(`unexpected argument "${parsed.positionals[expected.length]}" (${usageLine(cmd)})`);
  for (const [name, flag] of Object.entries(cmd.flags)) {
    if (flag.required && (values[name] === undefined || values[name] === "")) throw new UsageError(`missing --${name} (${usageLine(cmd)})`);
  }
  return { help: false, values, args: parsed.positionals };
}

function errorLine(err: AppError): string {
  const text = t("en", err.code, err.params);
  if (err instanceof ValidationFailed) return `${text} ${err.items.map((i) => `${i.loc.join(".")}: ${t("en", i.code, i.params ?? {})}`).join("; ")}`;
  return text;
}

export type Io = { out(text: string): void; err(text: string): void };
const stdio: Io = { out: (s) => process.stdout.write(`${s}\n`), err: (s) => process.stderr.write(`${s}\n`) };

/** Runs one command line; returns the exit code. */
export async function main(argv: string[], io: Io = stdio, env: Record<string, string | undefined> = process.env): Promise<number> {
  const json = argv.includes("--json");
  const fail = (code: number, errorCode: string, detail: string) => {
    io.err(`error: ${detail}`);
    if (json) io.out(JSON.stringify({ error: { code: errorCode, detail } }));
    return code;
  };
  let db: Db | undefined;
  try {
    const commands = await loadCommands();
    if (["help", "--help", "-h"].includes(argv[0])) {
      io.out(help(commands));
      return 0;
    }
    const cmd = findCommand(commands, argv);
    const { help: wantsHelp, values, args } = parseFlags(cmd, argv.slice(cmd.words.length));
    if (wantsHelp) {
      io.out(commandHelp(cmd));
      return 0;
    }
    const config = loadConfig(env);
    const cliEnv = {
      config,
      json,
      db: async () => {
        db ??= await openDb(config.databaseUrl);
        return db;
      },
    };
    const result = await cmd.run(cliEnv, { flags: values as never, args });
    io.out(json ? JSON.stringify(result) : cmd.human(result));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) return fail(2, "USAGE", err.message);
    if (err instanceof AppError) return fail(1, err.code, errorLine(err));
    return fail(1, "INTERNAL", err instanceof Error ? err.message : String(err));
  } finally {
    await db?.close();
  }
}

if (import.meta.main) process.exitCode = await main(Bun.argv.slice(2));
