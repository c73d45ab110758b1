// The secretary's first day, as the README tells it: `bun app/main.ts` on an empty database
// prints, beside the key, a one-time sign-in link for the owner. Opening it (over HTTP, and once in
// Chromium) asks for a password; sending it signs in and the password then signs in again. The
// link works once, expires, is replaced by a fresh one from `cli admins sign-in-link`, and a
// restart prints none. The real server process and the real CLI, on a fresh temp database.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { type Db, openDb } from "../db";
import { adminSessions, adminSignInLinks, admins } from "../db/schema";
import { sha256Hex } from "../lib/ids";
import { freePort, HAS_BROWSER, launchChromium, newPage, PHONE, pageCheck, signInOn } from "./dashboard/browser-harness";
import { freshDatabaseUrl } from "./databases";
import { ROOT, startServer } from "./reliability/server-process";

const dir = mkdtempSync(join(tmpdir(), "club-first-day-"));
const dbPath = await freshDatabaseUrl(dir);
const port = freePort();
const base = `http://127.0.0.1:${port}`;
const OWNER = "secretary@club.test";

type Server = { out: string; stop(): Promise<void> };

/** Starts the server as `bun run start` does, on the suite's port, waits until it listens. */
const start = (): Promise<Server> => startServer(dbPath, { ADMIN_EMAIL: OWNER, LOG_LEVEL: "silent" }, { port });

/** `bun run cli ...args --json` on the server's database, its JSON answer. */
async function cli(...args: string[]) {
  const proc = Bun.spawn(["bun", "scripts/cli.ts", ...args, "--json"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: dbPath, PORT: String(port), HOST: "127.0.0.1", BASE_URL: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, json: JSON.parse(stdout) };
}

/** What the database holds now (opened beside the running server, as the CLI does). */
async function inDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb(dbPath);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

const linkRow = (url: string) =>
  inDb(
    async (db) =>
      (
        await db.read
          .select()
          .from(adminSignInLinks)
          .where(eq(adminSignInLinks.token_hash, sha256Hex(new URL(url).searchParams.get("token") ?? "")))
      )[0],
  );
const owner = () => inDb(async (db) => (await db.read.select().from(admins).where(eq(admins.email, OWNER)))[0]);

const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith(`${name}=`) && c.length > name.length + 1) ?? null;

/** Opens the link as a browser would: the page, and the form's double-submit cookie and token. */
async function open(url: string): Promise<{ res: Response; html: string; cookie: string | null; csrf: string | null }> {
  const res = await fetch(url, { headers: { "accept-language": "en" } });
  const html = await res.text();
  return { res, html, cookie: cookieOf(res, "club_login"), csrf: /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? null };
}

/**
 * Sends the link's form: the token, the password twice (`confirm` when it differs). A spent link
 * shows no form: its double-submit token then comes from the sign-in page (the same cookie), as
 * a form kept open in another tab would have it.
 */
async function send(url: string, password: string, confirm = password) {
  let page = await open(url);
  if (!page.csrf) page = await open(`${base}/admin/login`);
  const token = new URL(url).searchParams.get("token") ?? "";
  return fetch(`${base}/admin/welcome`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: page.cookie ?? "", "accept-language": "en" },
    body: new URLSearchParams({ _csrf: page.csrf ?? "", token, password, confirm }),
  });
}

const apiLogin = (password: string) =>
  fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: OWNER, password }) });

let server: Server;
let link = "";

beforeAll(async () => {
  server = await start();
  link = /sign in:\s+(\S+)/.exec(server.out)?.[1] ?? "";
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the first start's sign-in link", () => {
  it("is printed beside the key: an address of this server's dashboard, its token stored only as a hash", async () => {
    expect(server.out).toMatch(/API key:\s+mk_live_\w+/);
    expect(link).toMatch(new RegExp(`^${base}/admin/welcome\\?token=[0-9A-Za-z]{43}$`));
    expect(server.out).toContain(`bun run cli admins sign-in-link --email ${OWNER}`);
    const row = await linkRow(link);
    expect(row.admin_id).toBe((await owner()).id);
    expect(row.used_at).toBeNull();
    // 24 hours from now, to the minute.
    expect(Math.abs(Date.parse(row.expires_at) - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    const raw = await inDb(async (db) => JSON.stringify(await db.read.select().from(adminSignInLinks)));
    expect(raw).not.toContain(new URL(link).searchParams.get("token") as string);
    expect((await owner()).password_hash).toBeNull();
  });

  it("opens a page naming the owner that asks for a password, and spends nothing by being opened", async () => {
    const page = await open(link);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(OWNER);
    expect(page.html).toContain('autocomplete="new-password"');
    expect(page.res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.cookie).not.toBeNull();
    await open(link);
    expect((await linkRow(link)).used_at).toBeNull();
  });

  it("refuses a password typed differently twice, on the field, and the link still works", async () => {
    const res = await send(link, "correct horse battery", "correct horse batery");
    expect(res.status).toBe(422);
    const html = await res.text();
    // The club's language: the first start's club is French.
    expect(html).toContain("Les deux mots de passe ne sont pas identiques.");
    expect(html).toContain('id="f-confirm-error"');
    expect((await linkRow(link)).used_at).toBeNull();
    expect((await owner()).password_hash).toBeNull();
  });

  it("sets the password and signs in: a session cookie that opens the dashboard", async () => {
    const res = await send(link, "correct horse battery");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin");
    const session = cookieOf(res, "club_session");
    expect(session).toMatch(/^club_session=ms_/);
    const dashboard = await fetch(`${base}/admin`, { headers: { cookie: session as string }, redirect: "manual" });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain(OWNER);
    expect((await linkRow(link)).used_at).not.toBeNull();
    expect(await Bun.password.verify("correct horse battery", (await owner()).password_hash as string)).toBe(true);
  });

  it("the password then signs in by itself", async () => {
    const res = await apiLogin("correct horse battery");
    expect(res.status).toBe(200);
    expect((await res.json()).admin_id).toBe((await owner()).id);
  });

  it("refuses a second use of the link, opened or sent (410), and the password stays", async () => {
    const opened = await open(link);
    expect(opened.res.status).toBe(410);
    expect(opened.html).toContain("Ce lien de connexion a déjà servi");
    expect(opened.html).not.toContain('name="password"');
    const resent = await send(link, "another long password");
    expect(resent.status).toBe(410);
    expect(cookieOf(resent, "club_session")).toBeNull();
    expect(await Bun.password.verify("correct horse battery", (await owner()).password_hash as string)).toBe(true);
  });
});

describe("cli admins sign-in-link", () => {
  it("makes a fresh link that replaces the owner's earlier unused one", async () => {
    const first = await cli("admins", "sign-in-link", "--email", OWNER);
    expect(first.code).toBe(0);
    expect(first.json.url).toMatch(new RegExp(`^${base}/admin/welcome\\?token=`));
    expect((await open(first.json.url)).res.status).toBe(200);
    const second = await cli("admins", "sign-in-link", "--email", OWNER);
    expect((await open(first.json.url)).res.status).toBe(410);
    expect((await open(second.json.url)).res.status).toBe(200);
  });

  it("refuses an email that is no admin's (exit 1, ADMIN_NOT_FOUND)", async () => {
    const run = await cli("admins", "sign-in-link", "--email", "nobody@club.test");
    expect(run.code).toBe(1);
    expect(run.json.error.code).toBe("ADMIN_NOT_FOUND");
  });

  it("an expired link is refused, opened or sent (410 SIGN_IN_LINK_EXPIRED), and changes nothing", async () => {
    const made = await cli("admins", "sign-in-link", "--email", OWNER);
    const token = new URL(made.json.url).searchParams.get("token") as string;
    await inDb((db) =>
      db.tx((t) =>
        t
          .update(adminSignInLinks)
          .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
          .where(eq(adminSignInLinks.token_hash, sha256Hex(token))),
      ),
    );
    const opened = await open(made.json.url);
    expect(opened.res.status).toBe(410);
    expect(opened.html).toContain("Ce lien de connexion a expiré (il vaut 24 heures)");
    const sessions = await inDb(async (db) => (await db.read.select().from(adminSessions)).length);
    const sent = await send(made.json.url, "an expired try here");
    expect(sent.status).toBe(410);
    expect((await linkRow(made.json.url)).used_at).toBeNull();
    expect(await inDb(async (db) => (await db.read.select().from(adminSessions)).length)).toBe(sessions);
    expect(await Bun.password.verify("correct horse battery", (await owner()).password_hash as string)).toBe(true);
  });
});

describe.skipIf(!HAS_BROWSER)("a fresh link in Chromium", () => {
  it("asks for a password by its labels, signs in to the overview, and the new password signs in again (1280 and 390 px)", async () => {
    const made = await cli("admins", "sign-in-link", "--email", OWNER);
    const browser = await launchChromium();
    try {
      const phone = await newPage(browser, PHONE);
      phone.setDefaultTimeout(10_000);
      await phone.goto(made.json.url);
      expect(await pageCheck(phone, "welcome-390")).toEqual({ name: "welcome-390", violations: [], overflow: 0 });
      await phone.close();

      const page = await newPage(browser);
      page.setDefaultTimeout(10_000);
      await page.goto(made.json.url);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Choisir votre mot de passe");
      expect(await pageCheck(page, "welcome-1280")).toEqual({ name: "welcome-1280", violations: [], overflow: 0 });
      await page.getByLabel("Nouveau mot de passe").fill("a brand new secretary password");
      await page.getByLabel("Le même, une seconde fois").fill("a brand new secretary password");
      await page.getByRole("button", { name: "Enregistrer et se connecter" }).click();
      await page.waitForURL(`${base}/admin`);
      expect(await page.locator("body").textContent()).toContain(OWNER);

      await page.getByRole("button", { name: "Se déconnecter" }).click();
      await page.waitForURL(/\/admin\/login/);
      // The sign-in page speaks the browser's language (the club is not known yet).
      await signInOn(page, { email: OWNER, password: "a brand new secretary password" });
      await page.waitForURL(`${base}/admin`);
      expect(await page.locator("body").textContent()).toContain(OWNER);
    } finally {
      await browser.close();
    }
  });
});

describe("a restart", () => {
  it("prints no link and no key, and the owner's password still signs in", async () => {
    await server.stop();
    server = await start();
    expect(server.out).toContain("Listening on");
    expect(server.out).not.toContain("/admin/welcome");
    expect(server.out).not.toContain("mk_live_");
    const res = await apiLogin(HAS_BROWSER ? "a brand new secretary password" : "correct horse battery");
    expect(res.status).toBe(200);
  });
});
