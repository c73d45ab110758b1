// The dashboard's API keys page through app.handle: a key created with the scope picker is shown
// once and works over the API, revoked it answers 401; the list never shows a secret; a read-only
// admin is offered view only and refused an edit key, and cannot revoke another admin's key.
import { describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { apiKeys } from "../../db/schema";
import { browser, withOwner } from "./helpers";

const t = withOwner();

const keyIn = (text: string) => text.match(/<code id="new-key-value">(mk_live_[A-Za-z0-9]+)<\/code>/)?.[1];

describe("API keys", () => {
  it("creates a key with the chosen scopes, shows it once, and it works over the API until revoked", async () => {
    const res = await t.owner.post(
      "/admin/keys",
      { name: "Tableur", scope_members: "edit", scope_events: "view", scope_finances: "none", expires_at: "" },
      "/admin/keys",
    );
    expect(res.status).toBe(201);
    const key = keyIn(res.text)!;
    expect(key).toBeDefined();
    const [row] = await t.env.db.read.select().from(apiKeys).where(eq(apiKeys.name, "Tableur"));
    expect(row.scopes).toEqual({ members: "edit", events: "view" });
    expect(row.key_hash).not.toBe(key);

    const me = await t.env.call("GET", "/api/auth/me", { key });
    expect(me.status).toBe(200);
    expect(me.body.scopes).toEqual({ members: "edit", events: "view" });

    // Shown once: the list afterwards names it by its prefix, never the key.
    const list = await t.owner.request("GET", "/admin/keys");
    expect(list.text).not.toContain(key);
    expect(list.text).toContain(`Tableur (${row.prefix}…)`);
    expect(list.text).toContain("Membres (modification), Événements (lecture)");

    const revoked = await t.owner.post(`/admin/keys/${row.id}/revoke`, {}, "/admin/keys");
    expect(revoked.status).toBe(303);
    expect((await t.env.call("GET", "/api/auth/me", { key })).status).toBe(401);
    const after = await t.owner.request("GET", "/admin/keys?done=revoked");
    expect(after.text).toContain("Clé révoquée");
    expect(after.text).not.toContain(`/admin/keys/${row.id}/revoke`);
    expect((await t.owner.post(`/admin/keys/${row.id}/revoke`, {}, "/admin/keys")).status).toBe(409);
  });

  it("caps every area at view with the view-only switch, and keeps an expiry day", async () => {
    const res = await t.owner.post(
      "/admin/keys",
      { name: "Lecture", scope_members: "edit", scope_card: "edit", view_only: "true", expires_at: "2099-06-30" },
      "/admin/keys",
    );
    expect(res.status).toBe(201);
    const [row] = await t.env.db.read.select().from(apiKeys).where(eq(apiKeys.name, "Lecture"));
    expect(row.scopes).toEqual({ members: "view", card: "view" });
    expect(row.expires_at).toBe("2099-06-30T23:59:59.999Z");
  });

  it("refuses a key without any area, or expiring in the past, keeping what was typed", async () => {
    const none = await t.owner.post("/admin/keys", { name: "Vide" }, "/admin/keys");
    expect(none.status).toBe(422);
    expect(none.text).toContain("Choisissez au moins un domaine.");
    const past = await t.owner.post("/admin/keys", { name: "Passée", scope_members: "view", expires_at: "2001-01-01" }, "/admin/keys");
    expect(past.status).toBe(422);
    expect(past.text).toContain('id="f-expires_at-error"');
    expect(past.text).toContain('value="Passée"');
    expect((await t.env.db.read.select().from(apiKeys).where(eq(apiKeys.name, "Passée"))).length).toBe(0);
  });
});

describe("read-only admin", () => {
  it("is offered view only, refused an edit key (403), and cannot revoke another admin's key", async () => {
    const ro = await t.env.makeAdmin({ readOnly: true });
    const viewer = browser(t.env);
    await viewer.signIn(ro.email, "admin-password");
    const page = await viewer.request("GET", "/admin/keys");
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('value="edit"');
    expect(page.text).not.toContain("/revoke");
    const refused = await viewer.post("/admin/keys", { name: "Pirate", scope_members: "edit" }, "/admin/keys");
    expect(refused.status).toBe(403);
    expect((await t.env.db.read.select().from(apiKeys).where(eq(apiKeys.name, "Pirate"))).length).toBe(0);
    const [ownerKey] = await t.env.db.read.select().from(apiKeys).where(eq(apiKeys.admin_id, t.env.adminId));
    expect((await viewer.post(`/admin/keys/${ownerKey.id}/revoke`, {}, "/admin/keys")).status).toBe(403);
    expect((await t.env.db.read.select().from(apiKeys).where(eq(apiKeys.id, ownerKey.id)))[0].revoked_at).toBeNull();
    // Their own view-only key they may make, and revoke.
    const own = await viewer.post("/admin/keys", { name: "Mine", scope_members: "view" }, "/admin/keys");
    expect(own.status).toBe(201);
    const [mine] = await t.env.db.read.select().from(apiKeys).where(eq(apiKeys.name, "Mine"));
    expect((await viewer.post(`/admin/keys/${mine.id}/revoke`, {}, "/admin/keys")).status).toBe(303);
  });
});
