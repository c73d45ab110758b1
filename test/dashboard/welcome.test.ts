// The page of a one-time sign-in link (/admin/welcome, lib/auth/sign-in-links), one rule per test,
// through app.handle: what the form refuses before the link is spent, that the link is spent once
// whoever races, that the new password replaces the old one and ends the admin's other sessions.
// The first start's link, end to end in the real server and Chromium: test/first-sign-in.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { adminSessions, adminSignInLinks, admins } from "../../db/schema";
import { createSignInLink } from "../../lib/auth/sign-in-links";
import { sha256Hex } from "../../lib/ids";
import { setup } from "../helpers";
import { browser, type Env } from "./helpers";

let env: Env;
beforeAll(async () => {
  env = await setup();
});
afterAll(async () => {
  await env.close();
});

/** A fresh link of `adminId` (default: the owner), its path as the browser opens it, and its token. */
async function linkOf(adminId = env.adminId, now?: Date) {
  const link = await createSignInLink(env.db, { adminId, baseUrl: "http://localhost", now });
  const url = new URL(link.url);
  return { path: url.pathname + url.search, token: url.searchParams.get("token") as string };
}

const linkRow = async (token: string) =>
  (
    await env.db.read
      .select()
      .from(adminSignInLinks)
      .where(eq(adminSignInLinks.token_hash, sha256Hex(token)))
  )[0];
const passwordOf = async (adminId: string) => (await env.db.read.select().from(admins).where(eq(admins.id, adminId)))[0].password_hash as string;

/** Opens the link in a fresh browser and sends its form. */
async function useLink(link: { path: string; token: string }, password: string, confirm = password) {
  const b = browser(env);
  const page = await b.request("GET", link.path);
  const sent = await b.request("POST", "/admin/welcome", { form: { _csrf: b.csrfOf(page), token: link.token, password, confirm } });
  return { b, sent };
}

describe("/admin/welcome", () => {
  it("refuses a password shorter than 12 characters on its field, the link unspent", async () => {
    const link = await linkOf();
    const { sent } = await useLink(link, "short pass");
    expect(sent.status).toBe(422);
    expect(sent.text).toContain("au moins 12 caractères (quelques mots");
    expect(sent.text).toContain('id="f-password-error"');
    expect((await linkRow(link.token)).used_at).toBeNull();
  });

  it("refuses a form that did not come from its page (no double-submit token): 403, the link unspent", async () => {
    const link = await linkOf();
    const b = browser(env);
    const sent = await b.request("POST", "/admin/welcome", {
      form: { _csrf: "forged", token: link.token, password: "long enough password", confirm: "long enough password" },
    });
    expect(sent.status).toBe(403);
    expect(sent.headers.getSetCookie().some((c) => c.startsWith("club_session="))).toBe(false);
    expect((await linkRow(link.token)).used_at).toBeNull();
  });

  it("answers an unknown, empty or oversized token with the refusal page (410), never a 500", async () => {
    const b = browser(env);
    for (const path of ["/admin/welcome", "/admin/welcome?token=", "/admin/welcome?token=nope", `/admin/welcome?token=${"x".repeat(5000)}`]) {
      const page = await b.request("GET", path, { headers: { "accept-language": "en" } });
      expect({ path, status: page.status }).toEqual({ path, status: 410 });
      expect(page.text).toContain("This sign-in link has already been used");
    }
  });

  it("spends a link once when its form is sent twice at the same time: one session, one refusal", async () => {
    const admin = await env.makeAdmin();
    const link = await linkOf(admin.id);
    const b1 = browser(env);
    const b2 = browser(env);
    const [p1, p2] = await Promise.all([b1.request("GET", link.path), b2.request("GET", link.path)]);
    const form = (b: typeof b1, p: typeof p1, password: string) =>
      b.request("POST", "/admin/welcome", { form: { _csrf: b.csrfOf(p), token: link.token, password, confirm: password } });
    const answers = await Promise.all([form(b1, p1, "first racing password"), form(b2, p2, "second racing password")]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 410]);
    const sessions = await env.db.read.select().from(adminSessions).where(eq(adminSessions.admin_id, admin.id));
    expect(sessions).toHaveLength(1);
    const winner = answers[0].status === 303 ? "first racing password" : "second racing password";
    expect(await Bun.password.verify(winner, await passwordOf(admin.id))).toBe(true);
  });

  it("replaces the old password and ends the admin's other sessions", async () => {
    const admin = await env.makeAdmin();
    const elsewhere = browser(env);
    await elsewhere.signIn(admin.email, "admin-password");
    expect((await elsewhere.request("GET", "/admin")).status).toBe(200);
    const { b, sent } = await useLink(await linkOf(admin.id), "a new and longer password");
    expect(sent.status).toBe(303);
    expect((await b.request("GET", "/admin")).status).toBe(200);
    expect((await elsewhere.request("GET", "/admin")).status).toBe(303);
    const login = (password: string) => env.call("POST", "/api/auth/login", { key: null, body: { email: admin.email, password } });
    expect((await login("admin-password")).status).toBe(401);
    expect((await login("a new and longer password")).status).toBe(200);
  });

  it("refuses the link of an admin removed from the team (410), however fresh", async () => {
    const admin = await env.makeAdmin();
    const link = await linkOf(admin.id);
    await env.db.tx((t) => t.update(admins).set({ removed_at: new Date().toISOString() }).where(eq(admins.id, admin.id)));
    const page = await browser(env).request("GET", link.path);
    expect(page.status).toBe(410);
    expect(page.text).not.toContain('name="password"');
  });

  it("refuses a link made more than 24 hours ago (410 SIGN_IN_LINK_EXPIRED), and one made 23 hours ago still opens", async () => {
    const old = await linkOf(env.adminId, new Date(Date.now() - 24 * 3600_000 - 1000));
    expect((await browser(env).request("GET", old.path)).status).toBe(410);
    const recent = await linkOf(env.adminId, new Date(Date.now() - 23 * 3600_000));
    expect((await browser(env).request("GET", recent.path)).status).toBe(200);
  });
});

describe("links made at once", () => {
  it("leave one working link, however many are made together (on PostgreSQL: side by side)", async () => {
    const admin = await env.makeAdmin({ email: "many-links@test.org" });
    await Promise.all(Array.from({ length: 8 }, () => createSignInLink(env.db, { adminId: admin.id, baseUrl: "http://localhost" })));
    const live = (await env.db.read.select().from(adminSignInLinks).where(eq(adminSignInLinks.admin_id, admin.id))).filter((l) => l.used_at === null);
    expect(live).toHaveLength(1);
  });
});
