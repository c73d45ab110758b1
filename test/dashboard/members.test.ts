// The dashboard's overview and members pages through app.handle: what they show, what each form
// writes (checked in the database and through the API), what they refuse (a read-only admin, a
// form without its CSRF token), and that every write is audited. The import page: import.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, members, payments } from "../../db/schema";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { browser, type Env } from "./helpers";

let env: Env;
let owner: ReturnType<typeof browser>;
beforeAll(async () => {
  env = await setup();
  owner = browser(env);
  await owner.signIn();
});
afterAll(() => env.close());

const row = async (id: string) => (await env.db.read.select().from(members).where(eq(members.id, id)))[0];

describe("overview", () => {
  it("shows the member counts and the two charts, escaped, in the club's language", async () => {
    await seedMember(env, { first_name: "Zoé", last_name: "<b>Bold</b>" });
    const page = await owner.request("GET", "/admin");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Recettes par mois");
    expect(page.text).toContain("Fréquentation par semaine");
    // Nothing paid nor checked in yet: each chart says so rather than drawing an empty axis.
    expect(page.text).toContain("Aucune recette sur ces 12 mois");
    expect(page.text).toContain("Pas encore d&#x27;entrée contrôlée");
    expect(page.text).toMatch(/<dt>Actifs<\/dt><dd>\d+<\/dd>/);
  });

  it("charts a payment in its month", async () => {
    const m = await seedMember(env);
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/mark-paid`, { body: { amount_cents: 4200 } });
    expect(res.status).toBe(200);
    const page = await owner.request("GET", "/admin");
    // The month's bar and its row in the table carry the amount; drawn wide and narrow (the stylesheet shows the one that fits).
    expect(page.text).toMatch(/42[.,]00/);
    expect((page.text.match(/<svg class="chart-wide"/g) ?? []).length).toBe(1);
    expect((page.text.match(/<svg class="chart-narrow"/g) ?? []).length).toBe(1);
  });
});

describe("members list", () => {
  it("searches, filters and pages, escaping names", async () => {
    const m = await seedMember(env, { first_name: "Quentin", last_name: "<script>x</script>", email: "quentin@test.org" });
    const page = await owner.request("GET", "/admin/members?search=quentin");
    expect(page.status).toBe(200);
    expect(page.text).toContain(`/admin/members/${m.id}`);
    expect(page.text).not.toContain("<script>x</script>");
    expect(page.text).toContain("&lt;script&gt;x&lt;/script&gt;");
    const suspended = await owner.request("GET", "/admin/members?status=suspended&search=quentin");
    expect(suspended.text).not.toContain(`/admin/members/${m.id}`);
    // An htmx request gets only the results.
    const partial = await owner.request("GET", "/admin/members?search=quentin", { headers: { "hx-request": "true" } });
    expect(partial.text.startsWith('<div id="results">')).toBe(true);
    // A `done` the page does not know shows no notice (not an object's inherited property).
    expect((await owner.request("GET", "/admin/members?done=constructor")).text).not.toContain('class="notice');
    // Out-of-range query values fall back to the defaults rather than failing.
    expect((await owner.request("GET", "/admin/members?sort=nope&page=-3")).status).toBe(200);
    // ...only the faulty ones: the search still holds.
    const kept = await owner.request("GET", "/admin/members?search=quentin&sort=nope");
    expect(kept.text).toContain(`/admin/members/${m.id}`);
    expect(kept.text).toMatch(/<p class="muted" role="status">1 /);
  });

  it("exports the chosen members as CSV, and a PDF", async () => {
    const a = await seedMember(env, { email: "export-a@test.org" });
    await seedMember(env, { email: "export-b@test.org" });
    const csv = await owner.request("GET", `/admin/members/export?format=csv&member_ids=${a.id}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text).toContain("export-a@test.org");
    expect(csv.text).not.toContain("export-b@test.org");
    const pdf = await owner.request("GET", "/admin/members/export?format=pdf");
    expect(pdf.headers.get("content-type")).toContain("application/pdf");
    // The API's query schema and verb refuse what they refuse there: an unknown format, an id that is no uuid.
    const xlsx = await owner.request("GET", `/admin/members/export?format=xlsx&member_ids=${a.id}`);
    expect(xlsx.status).toBe(422);
    expect(xlsx.headers.get("content-type")).toContain("text/html");
    expect((await owner.request("GET", "/admin/members/export?member_ids=nope")).status).toBe(422);
  });
});

describe("add, edit, act on, erase a member", () => {
  it("adds a member, refusing a duplicate email with the API's message", async () => {
    const res = await owner.post(
      "/admin/members/new",
      { first_name: "Léa", last_name: "Rochat", email: "lea.rochat@test.org", membership_end: "2031-12-31" },
      "/admin/members/new",
    );
    expect(res.status).toBe(303);
    const id = res.headers.get("location")!.match(/members\/([0-9a-f-]{36})/)![1];
    const stored = await row(id);
    expect(stored.email).toBe("lea.rochat@test.org");
    expect(stored.is_manual).toBe(true);
    const again = await owner.post(
      "/admin/members/new",
      { first_name: "Léa", last_name: "Rochat", email: "lea.rochat@test.org", membership_end: "2031-12-31" },
      "/admin/members/new",
    );
    expect(again.status).toBe(409);
    expect(again.text).toContain('role="alert"');
    expect(again.text).toContain('value="lea.rochat@test.org"');
  });

  it("shows a field's error beside it (422) and keeps what was typed", async () => {
    const res = await owner.post(
      "/admin/members/new",
      { first_name: "Ana", last_name: "", email: "not-an-email", membership_end: "2031-12-31" },
      "/admin/members/new",
    );
    expect(res.status).toBe(422);
    expect(res.text).toContain('id="f-email-error"');
    expect(res.text).toContain('aria-invalid="true"');
    expect(res.text).toContain('value="Ana"');
  });

  it("edits a member (a resent, unchanged end needs no reason) and records it", async () => {
    const m = await seedMember(env, { first_name: "Old", email: "edit-me@test.org" });
    const res = await owner.post(
      `/admin/members/${m.id}/edit`,
      { first_name: "New", last_name: m.last_name, email: "edit-me@test.org", tier_id: "", payment_method: "", membership_end: m.membership_end, reason: "" },
      `/admin/members/${m.id}/edit`,
    );
    expect(res.status).toBe(303);
    expect((await row(m.id)).first_name).toBe("New");
    const page = await owner.request("GET", res.headers.get("location")!);
    expect(page.text).toContain("Modifications enregistrées.");
    expect(page.text).toContain("<td>Modification</td>");
  });

  it("refuses an end correction without a reason, as the API does", async () => {
    const m = await seedMember(env);
    const res = await owner.post(
      `/admin/members/${m.id}/edit`,
      { first_name: m.first_name, last_name: m.last_name, email: m.email, tier_id: "", payment_method: "", membership_end: "2030-01-01", reason: "" },
      `/admin/members/${m.id}/edit`,
    );
    expect(res.status).toBe(422);
    expect((await row(m.id)).membership_end).toBe(m.membership_end);
  });

  it("records a payment typed with a comma, then suspends and refuses a second suspension (409)", async () => {
    const m = await seedMember(env, { payment_status: "pending" });
    const paid = await owner.post(`/admin/members/${m.id}/actions/mark-paid`, { amount: "60,50", payment_method: "cash" }, `/admin/members/${m.id}`);
    expect(paid.status).toBe(303);
    const [p] = await env.db.read.select().from(payments).where(eq(payments.member_id, m.id));
    expect(p.amount_cents).toBe(6050);
    expect((await row(m.id)).payment_status).toBe("paid");
    // The method is free text: one the page's texts do not name is shown as typed.
    const odd = await owner.post(`/admin/members/${m.id}/actions/mark-paid`, { amount: "1", payment_method: "constructor" }, `/admin/members/${m.id}`);
    expect(odd.status).toBe(303);
    const shown = await owner.request("GET", `/admin/members/${m.id}`);
    expect(shown.text).toContain("<td>constructor</td>");
    expect(shown.text).not.toContain("native code");
    expect((await owner.post(`/admin/members/${m.id}/actions/suspend`, { reason: "asked" }, `/admin/members/${m.id}`)).status).toBe(303);
    expect((await row(m.id)).payment_status).toBe("suspended");
    const twice = await owner.post(`/admin/members/${m.id}/actions/suspend`, {}, `/admin/members/${m.id}`);
    expect(twice.status).toBe(409);
    const page = await owner.request("GET", `/admin/members/${m.id}`);
    expect(page.text).toContain("/actions/reactivate");
    expect(page.text).not.toContain("/actions/suspend");
  });

  it("erases a member only once confirmed", async () => {
    const m = await seedMember(env, { email: "erase-me@test.org" });
    const unconfirmed = await owner.post(`/admin/members/${m.id}/erase`, {}, `/admin/members/${m.id}/erase`);
    expect(unconfirmed.status).toBe(422);
    expect((await row(m.id)).email).toBe("erase-me@test.org");
    const res = await owner.post(`/admin/members/${m.id}/erase`, { confirm: "yes" }, `/admin/members/${m.id}/erase`);
    expect(res.status).toBe(303);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/members/${m.id}`)).status).toBe(404);
  });

  it("audits each write with via dashboard and the admin", async () => {
    const rows = await env.db.read.select().from(auditLog).where(eq(auditLog.via, "dashboard"));
    const paths = rows.map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(paths).toContain("POST /admin/members/new 303");
    expect(paths).toContain("POST /admin/members/new 409");
    expect(rows.every((r) => r.admin_id === env.adminId)).toBe(true);
  });
});

describe("refusals", () => {
  it("refuses a write without the CSRF token (403): nothing is written", async () => {
    const res = await owner.request("POST", "/admin/members/new", {
      form: { first_name: "No", last_name: "Token", email: "no-token@test.org", membership_end: "2031-01-01" },
    });
    expect(res.status).toBe(403);
    expect((await env.db.read.select().from(members).where(eq(members.email, "no-token@test.org"))).length).toBe(0);
  });

  it("shows a read-only admin no edit action, and refuses their posts (403) as the API does", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    expect((await viewer.signIn(ro.email, "admin-password")).status).toBe(303);
    const m = await seedMember(env);
    const list = await viewer.request("GET", "/admin/members");
    expect(list.status).toBe(200);
    expect(list.text).toContain("Lecture seule");
    expect(list.text).not.toContain("/admin/members/new");
    expect(list.text).not.toContain("/admin/members/import");
    const page = await viewer.request("GET", `/admin/members/${m.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("/actions/");
    expect(page.text).not.toContain("/edit");
    expect(page.text).not.toContain("/erase");
    const post = await viewer.post(`/admin/members/${m.id}/actions/suspend`, {}, `/admin/members/${m.id}`);
    expect(post.status).toBe(403);
    expect((await row(m.id)).payment_status).toBe("paid");
    expect((await viewer.request("GET", "/admin/members/new")).status).toBe(403);
    const audited = await env.db.read.select().from(auditLog).where(eq(auditLog.admin_id, ro.id));
    expect(audited.some((r) => r.status === 403 && r.via === "dashboard")).toBe(true);
  });

  it("answers 404 for another club's member", async () => {
    const other = await env.otherClub();
    const res = await env.call("POST", `/api/clubs/${other.club_id}/members/manual`, {
      key: other.api_key,
      body: { first_name: "O", last_name: "C", email: "oc@test.org", membership_end: "2031-01-01" },
    });
    expect((await owner.request("GET", `/admin/members/${res.body.id}`)).status).toBe(404);
  });
});
