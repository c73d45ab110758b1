// The README's curl tour, run as written (bash and curl) against the real server, for what a
// newcomer copies without knowing the API yet: the member actions (extend, mark-paid that also
// renews, suspend and reactivate with their JSON body) and the public event list, whose club
// slug the tour reads from GET /api/auth/me.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVENT_TYPES } from "../lib/webhooks/schemas";
import { ROOT, type ServerProcess, startServer } from "./reliability/server-process";

const dir = mkdtempSync(join(tmpdir(), "club-readme-"));
let server: ServerProcess;
let memberId: string;

/** The README's shell commands, a command continued over several lines (`\`) as one. */
function readmeCommands(): string[] {
  const blocks = [...readFileSync(join(ROOT, "README.md"), "utf8").matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) =>
    b
      .replace(/\\\n\s*/g, " ")
      .split("\n")
      .filter((line) => line.trim() && !line.trim().startsWith("#")),
  );
}

/** The one README command matching `pattern`. */
function command(pattern: RegExp): string {
  const found = readmeCommands().filter((c) => pattern.test(c));
  expect(found).toHaveLength(1);
  return found[0];
}

/** Runs a README command with bash, the tour's variables set and `<member_id>` filled in. */
function run(cmd: string, vars: Record<string, string> = {}): string {
  const proc = Bun.spawnSync(["bash", "-c", cmd.replaceAll("<member_id>", memberId)], {
    env: { ...process.env, KEY: server.key as string, BASE: server.base, CLUB: server.clubId as string, ...vars },
  });
  expect(proc.exitCode).toBe(0);
  return proc.stdout.toString();
}

beforeAll(async () => {
  server = await startServer(join(dir, "club.db"));
  const res = await fetch(`${server.base}/api/clubs/${server.clubId}/members/manual`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body: JSON.stringify({ first_name: "Émilie", last_name: "Durand", email: "emilie@example.org", membership_end: "2030-06-30" }),
  });
  memberId = (await res.json()).id;
});

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("README: the curl tour", () => {
  it("extend, then mark-paid renews an active member from the end of its period (12 months, the club's default)", () => {
    const extended = JSON.parse(run(command(/\/actions\/extend\b/)));
    expect(extended.membership_end).toBe("2030-12-30");
    const paid = JSON.parse(run(command(/\/actions\/mark-paid\b/)));
    expect(paid.payment_status).toBe("paid");
    expect(paid.membership_end).toBe("2031-12-30");
  });

  it("suspend and reactivate, with the JSON bodies the README sends", () => {
    expect(JSON.parse(run(command(/\/actions\/suspend\b/))).status).toBe("suspended");
    expect(JSON.parse(run(command(/\/actions\/reactivate\b/))).status).toBe("active");
  });

  it("correct and remove: PATCH with a reason, history, data export, then erasure (204) and the member is gone", () => {
    const patched = JSON.parse(run(command(/-X PATCH .*members\/<member_id>$/)));
    expect([patched.last_name, patched.membership_end]).toEqual(["Durand-Favre", "2030-12-31"]);
    const history = JSON.parse(run(command(/members\/<member_id>\/history$/)));
    expect(history.items[0]).toMatchObject({ kind: "correction", reason: "Paid for two seasons" });
    expect(JSON.parse(run(command(/members\/<member_id>\/data-export$/))).member.last_name).toBe("Durand-Favre");
    expect(run(`${command(/-X DELETE .*members\/<member_id>$/)} -o /dev/null -w '%{http_code}'`)).toBe("204");
    expect(JSON.parse(run(command(/^curl -s -H "Authorization: Bearer \$KEY" \$BASE\/api\/clubs\/\$CLUB\/members\/<member_id>$/))).code).toBe(
      "MEMBER_NOT_FOUND",
    );
  });

  it("the Idempotency-Key example adds Léa once: the same command with the same key answers the same", () => {
    const cmd = command(/Idempotency-Key:/).replace("$(cat /proc/sys/kernel/random/uuid)", "readme-tour-key");
    const first = run(cmd);
    expect(JSON.parse(first).email).toBe("lea@example.org");
    expect(run(cmd)).toBe(first);
  });

  it("the logo command uploads logo.png from the folder it runs in; the address it names serves it", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#0F766E"/></svg>';
    // A PNG made by the server's own image library from an SVG: what a club has on its disk.
    const png = await (await import("sharp")).default(Buffer.from(svg)).png().toBuffer();
    await Bun.write(join(dir, "logo.png"), png);
    const club = JSON.parse(run(`cd "${dir}" && ${command(/\/logo$/)}`));
    expect(club.logo_url).toStartWith(`${server.base}/logos/${server.clubId}/logo.png?v=`);
    const file = await fetch(club.logo_url);
    expect(file.headers.get("content-type")).toBe("image/png");
  });

  it("the club slug comes from GET /api/auth/me, and the public event list answers for it", async () => {
    const slug = run(`${command(/^SLUG=/)}; printf %s "$SLUG"`);
    const me = await (await fetch(`${server.base}/api/auth/me`, { headers: { authorization: `Bearer ${server.key}` } })).json();
    expect(slug).toBe(me.club.slug);
    expect(JSON.parse(run(command(/\/api\/public\/clubs\/\$SLUG\/events/), { SLUG: slug }))).toEqual([]);
  });
});

describe("README: the webhooks' events", () => {
  it("lists every event type an endpoint can ask for, and none other", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const paragraph = /Events \(`\["\*"\]` for all\):([\s\S]*?)The body is/.exec(readme)?.[1] ?? "";
    const listed = [...paragraph.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]);
    expect(listed.toSorted()).toEqual([...EVENT_TYPES].toSorted());
  });
});
