// The dashboard's mailings pages through app.handle (issue 29, DESIGN.md section 22): the history
// with its counts, a draft composed (refusals beside their field, in French), the live count of an
// audience not saved, the preview as a member gets it (its HTML a page of its own, sandboxed), the
// test sent to the signed-in admin (read from a real local SMTP server), scheduled in the club's
// time zone then cancelled, sent now and its recipients' states, the member page's marks, and a
// read-only admin who sees but neither writes nor gets the buttons.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { mailingRecipients, mailings } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { MAILING_JOBS } from "../../lib/mailings/send";
import { insertTier } from "../events-fixtures";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { header, startSmtp, type TestSmtp, textOf } from "../smtp";
import { browser, type Env } from "./helpers";

let env: Env;
let smtp: TestSmtp;
let owner: ReturnType<typeof browser>;
let tier: { id: string };
const people: Record<"emilie" | "jonas" | "bounced" | "no", { id: string }> = {} as never;

const mailingOf = async (id: string) => (await env.db.read.select().from(mailings).where(eq(mailings.id, id)))[0];
const allMailings = () => env.db.read.select().from(mailings);
const htmx = { "hx-request": "true" };
/** A page's text with its escaped apostrophes back (the JSX escapes `'`). */
const plain = (page: { text: string }) => page.text.replaceAll("&#x27;", "'");
/** The mailing id a redirect after a create names. */
const idOf = (location: string | null) => /\/admin\/mailings\/([0-9a-f-]{36})/.exec(location ?? "")?.[1] as string;

async function draft(subject: string, audience: Record<string, string | string[]> = { tier_ids: tier.id }): Promise<string> {
  const res = await owner.post(
    "/admin/mailings/new",
    { subject, body_markdown: "Bonjour {{first_name}},\n\nÀ **bientôt**.", ...audience },
    "/admin/mailings/new",
  );
  expect(res.status).toBe(303);
  return idOf(res.headers.get("location"));
}

beforeAll(async () => {
  smtp = await startSmtp();
  env = await setup({ SMTP_URL: smtp.url, RATE_LIMIT_PER_MINUTE: "100000000", MAIL_RATE_PER_MINUTE: "6000" });
  owner = browser(env);
  await owner.signIn();
  tier = await insertTier(env, { name: "Juniors" });
  const now = new Date().toISOString();
  people.emilie = await seedMember(env, { first_name: "Émilie", last_name: "Rochat", email: "emilie@test.org", tier_id: tier.id });
  people.jonas = await seedMember(env, { first_name: "Jonas", last_name: "Keller", email: "jonas@test.org", tier_id: tier.id });
  people.bounced = await seedMember(env, {
    first_name: "Bruno",
    last_name: "Rebond",
    email: "bruno@test.org",
    tier_id: tier.id,
    email_bounced_at: now,
    email_bounced_address: "bruno@test.org",
  });
  people.no = await seedMember(env, { first_name: "Nina", last_name: "Non", email: "nina@test.org", tier_id: tier.id, mailing_opt_out_at: now });
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});

describe("mailings pages", () => {
  it("is in the navigation and starts empty", async () => {
    expect((await owner.request("GET", "/admin")).text).toContain('href="/admin/mailings"');
    const page = await owner.request("GET", "/admin/mailings");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<title>Envois");
    expect(plain(page)).toContain("Aucun envoi pour l'instant.");
    expect(page.text).toContain('href="/admin/mailings/new"');
  });

  it("composes a draft: the picker, the merge fields, the count; refusals beside their field in French, nothing saved", async () => {
    const form = await owner.request("GET", "/admin/mailings/new");
    expect(form.status).toBe(200);
    expect(form.text).toContain("<code>{{member_page_url}}</code>");
    expect(form.text).toContain(`name="tier_ids" value="${tier.id}"`);
    expect(form.text).toContain('name="statuses" value="active"');
    expect(form.text).toContain('hx-get="/admin/mailings/count"');

    const empty = await owner.post("/admin/mailings/new", { subject: " ", body_markdown: "Bonjour" }, "/admin/mailings/new");
    expect(empty.status).toBe(422);
    expect(empty.text).toMatch(/id="f-subject-error" class="error-text">[^<]+</);
    expect(empty.text).toContain(">Bonjour</textarea>");
    const unknown = await owner.post("/admin/mailings/new", { subject: "AG", body_markdown: "Salut {{prenom}}" }, "/admin/mailings/new");
    expect(unknown.status).toBe(422);
    expect(unknown.text).toContain("Champ de fusion inconnu : « {{prenom}} »");
    const stranger = await owner.post("/admin/mailings/new", { subject: "AG", body_markdown: "x", tier_ids: crypto.randomUUID() }, "/admin/mailings/new");
    expect(stranger.status).toBe(422);
    expect(plain(stranger)).toContain("n'est pas une formule de ce club");
    expect(await allMailings()).toHaveLength(0);

    const res = await owner.post(
      "/admin/mailings/new",
      { subject: "Assemblée, {{first_name}}", body_markdown: "Bonjour {{first_name}}", tier_ids: tier.id, statuses: ["active", "pending"] },
      "/admin/mailings/new",
    );
    expect(res.status).toBe(303);
    const id = idOf(res.headers.get("location"));
    expect(res.headers.get("location")).toBe(`/admin/mailings/${id}?done=created`);
    expect(await mailingOf(id)).toMatchObject({
      subject: "Assemblée, {{first_name}}",
      body_markdown: "Bonjour {{first_name}}",
      status: "draft",
      audience: { statuses: ["active", "pending"], tier_ids: [tier.id] },
    });
    const page = await owner.request("GET", `/admin/mailings/${id}?done=created`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Brouillon créé.");
    expect(page.text).toContain(`name="tier_ids" value="${tier.id}" checked`);
    // The saved audience's count: four members, two of them skipped (one said no, one bounced).
    expect(page.text).toContain("4 membres recevraient cet envoi.");
    expect(plain(page)).toContain("2 d'entre eux seraient sautés");

    // Saved again with another subject and everyone: the draft holds it.
    const saved = await owner.post(
      `/admin/mailings/${id}`,
      { subject: "Assemblée du 12 mars", body_markdown: "Bonjour {{first_name}} !" },
      `/admin/mailings/${id}`,
    );
    expect(saved.status).toBe(303);
    expect(await mailingOf(id)).toMatchObject({ subject: "Assemblée du 12 mars", body_markdown: "Bonjour {{first_name}} !", audience: {} });
    const bad = await owner.post(`/admin/mailings/${id}`, { subject: "x", body_markdown: "{{card}}" }, `/admin/mailings/${id}`);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("« {{card}} »");
    expect((await mailingOf(id)).subject).toBe("Assemblée du 12 mars");
  });

  it("counts an audience not saved as the picker changes (htmx), saying how many would be skipped; a refusal in French", async () => {
    const count = await owner.request("GET", `/admin/mailings/count?tier_ids=${tier.id}`, { headers: htmx });
    expect(count.status).toBe(200);
    expect(count.text).toContain("4 membres recevraient cet envoi.");
    expect(plain(count)).toContain("2 d'entre eux seraient sautés (désinscrits des envois ou adresse rejetée).");
    expect(count.text).toContain("Émilie Rochat");
    const none = await owner.request("GET", `/admin/mailings/count?tier_ids=${tier.id}&statuses=expired`, { headers: htmx });
    expect(none.text).toContain("0 membre recevrait cet envoi.");
    const stranger = await owner.request("GET", `/admin/mailings/count?tier_ids=${crypto.randomUUID()}`, { headers: htmx });
    expect(stranger.status).toBe(422);
    expect(plain(stranger)).toContain("n'est pas une formule de ce club");
    const nonsense = await owner.request("GET", "/admin/mailings/count?statuses=bogus", { headers: htmx });
    expect(nonsense.status).toBe(422);
    expect(nonsense.text).toContain('role="alert"');
  });

  it("previews the draft as a chosen member gets it: subject, the HTML in a sandboxed frame of its own, the text part", async () => {
    const id = await draft("Salut {{first_name}}");
    const page = await owner.request("GET", `/admin/mailings/${id}?member_id=${people.jonas.id}`);
    expect(page.text).toContain('<dd class="preview-subject">Salut Jonas</dd>');
    expect(page.text).toContain(
      `<iframe src="/admin/mailings/${id}/frame?member_id=${people.jonas.id}" title="Le message tel que le membre le reçoit" class="mail-preview" sandbox=""`,
    );
    expect(page.text).toMatch(/<pre class="mail-text">Bonjour Jonas,\s+À \*\*bientôt\*\*\./);
    const frame = await owner.request("GET", `/admin/mailings/${id}/frame?member_id=${people.jonas.id}`);
    expect(frame.status).toBe(200);
    expect(frame.text).toContain("<strong>bientôt</strong>");
    expect(frame.text).toContain("Bonjour Jonas");
    expect(frame.headers.get("content-security-policy")).toContain("sandbox");
    expect(frame.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    // The fragment htmx swaps in when another member is chosen.
    const fragment = await owner.request("GET", `/admin/mailings/${id}/preview?member_id=${people.emilie.id}`, { headers: htmx });
    expect(fragment.text.startsWith('<div id="preview-body"')).toBe(true);
    expect(fragment.text).toContain("Salut Émilie");
    expect((await owner.request("GET", `/admin/mailings/${id}/frame?member_id=${crypto.randomUUID()}`)).status).toBe(404);
  });

  it("sends a test to the signed-in admin's address, read from the SMTP server", async () => {
    const id = await draft("Essai {{first_name}}");
    smtp.inbox.length = 0;
    const res = await owner.post(`/admin/mailings/${id}/test`, {}, `/admin/mailings/${id}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/mailings/${id}?done=tested`);
    expect(smtp.inbox).toHaveLength(1);
    expect(smtp.inbox[0].to).toEqual(["owner@test.org"]);
    expect(header(smtp.inbox[0].raw, "Subject")).toBe("[Test] Essai Jonas");
    expect(textOf(smtp.inbox[0].raw)).toContain("Bonjour Jonas,");
    expect((await owner.request("GET", res.headers.get("location") as string)).text).toContain("Test envoyé à votre adresse.");
    expect((await mailingOf(id)).status).toBe("draft");
  });

  it("schedules at a time typed in the club's zone, then cancels; a second cancel is refused (409) in French", async () => {
    const id = await draft("Programmé");
    const missing = await owner.post(`/admin/mailings/${id}/send`, { when: "later", send_at: "" }, `/admin/mailings/${id}`);
    expect(missing.status).toBe(422);
    expect(missing.text).toMatch(/id="f-send_at-error" class="error-text">/);
    expect((await mailingOf(id)).status).toBe("draft");
    // The hour the clocks skip in spring (Europe/Zurich, 31 March 2030): refused beside the field, not moved.
    const skipped = await owner.post(`/admin/mailings/${id}/send`, { when: "later", send_at: "2030-03-31T02:30" }, `/admin/mailings/${id}`);
    expect(skipped.status).toBe(422);
    expect(skipped.text).toMatch(/id="f-send_at-error" class="error-text">[^<]*2030-03-31 02:30/);
    expect(skipped.text).toContain('value="2030-03-31T02:30"');
    expect((await mailingOf(id)).status).toBe("draft");
    // A time gone by, asked to schedule: refused beside the field, nobody mailed (the API would start at once).
    const past = await owner.post(`/admin/mailings/${id}/send`, { when: "later", send_at: "2020-05-04T10:00" }, `/admin/mailings/${id}`);
    expect(past.status).toBe(422);
    expect(past.text).toMatch(/id="f-send_at-error" class="error-text">Cette heure est passée \(2020-05-04 10:00\)/);
    expect((await mailingOf(id)).status).toBe("draft");
    const res = await owner.post(`/admin/mailings/${id}/send`, { when: "later", send_at: "2030-03-01T09:00" }, `/admin/mailings/${id}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/mailings/${id}?done=scheduled`);
    // Europe/Zurich in March: UTC+1.
    expect(await mailingOf(id)).toMatchObject({ status: "scheduled", send_at: "2030-03-01T08:00:00.000Z" });
    const page = await owner.request("GET", res.headers.get("location") as string);
    expect(page.text).toContain("Envoi programmé.");
    expect(page.text).toContain("Programmé pour (Europe/Zurich)");
    expect(page.text).toContain("1 mars 2030");
    expect(page.text).not.toContain('id="compose-form"');
    // A scheduled mailing is no draft: it is not changed.
    const edit = await owner.post(`/admin/mailings/${id}`, { subject: "Autre", body_markdown: "x" }, `/admin/mailings/${id}`);
    expect(edit.status).toBe(409);
    expect(edit.text).toContain("seul un brouillon se modifie");

    const cancel = await owner.post(`/admin/mailings/${id}/cancel`, {}, `/admin/mailings/${id}`);
    expect(cancel.status).toBe(303);
    expect((await mailingOf(id)).status).toBe("cancelled");
    const again = await owner.post(`/admin/mailings/${id}/cancel`, {}, `/admin/mailings/${id}`);
    expect(again.status).toBe(409);
    expect(plain(again)).toContain("seul un brouillon ou un envoi programmé s'annule");
  });

  it("sends now: the recipients taken, mailed by the queue, their states and the counts on its page and in the history", async () => {
    const id = await draft("Saison {{first_name}}");
    smtp.inbox.length = 0;
    const res = await owner.post(`/admin/mailings/${id}/send`, { when: "now" }, `/admin/mailings/${id}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/mailings/${id}?done=sent`);
    expect((await mailingOf(id)).status).toBe("sending");
    for (let i = 0; i < 20 && (await mailingOf(id)).status === "sending"; i++)
      await runDueJobs(env.db, { kinds: MAILING_JOBS, config: env.config, now: new Date(Date.now() + i * 60_000) });
    expect((await mailingOf(id)).status).toBe("sent");
    expect(smtp.inbox.map((m) => m.to[0]).sort()).toEqual(["emilie@test.org", "jonas@test.org"]);
    const states = (await env.db.read.select().from(mailingRecipients).where(eq(mailingRecipients.mailing_id, id))).map((r) => [r.email, r.state]).sort();
    expect(states).toEqual([
      ["bruno@test.org", "bounced"],
      ["emilie@test.org", "sent"],
      ["jonas@test.org", "sent"],
      ["nina@test.org", "skipped_opt_out"],
    ]);

    const page = await owner.request("GET", `/admin/mailings/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span class="status status-active">Envoyé</span>');
    expect(page.text).toMatch(/<dt>Destinataires<\/dt><dd>4<\/dd>/);
    expect(page.text).toMatch(/<dt>Envoyés<\/dt><dd>2<\/dd>/);
    expect(page.text).toMatch(/<dt>Rejetés<\/dt><dd>1<\/dd>/);
    expect(page.text).toMatch(/<dt>Désinscrits<\/dt><dd>1<\/dd>/);
    expect(page.text).toContain("4 destinataires");
    expect(page.text).toContain('<span class="state state-bounced">Rejeté</span>');
    expect(page.text).toContain('<span class="state state-skipped_opt_out">Désinscrit</span>');
    expect(page.text).toContain(`<a href="/admin/members/${people.emilie.id}">Émilie Rochat</a>`);
    expect(page.text).not.toContain('id="compose-form"');
    expect(page.text).not.toContain(`/admin/mailings/${id}/cancel`);

    const twice = await owner.post(`/admin/mailings/${id}/send`, { when: "now" }, `/admin/mailings/${id}`);
    expect(twice.status).toBe(409);
    expect(twice.text).toContain("il ne peut pas être envoyé");
    expect(smtp.inbox).toHaveLength(2);

    // The history, newest first, with the counts.
    const list = await owner.request("GET", "/admin/mailings");
    const subjects = [...list.text.matchAll(/<a href="\/admin\/mailings\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map((m) => m[1]);
    expect(subjects[0]).toBe("Saison {{first_name}}");
    expect(subjects).toContain("Programmé");
    expect(list.text).toContain('<span class="status status-expired">Annulé</span>');
    expect(list.text).toMatch(
      /Saison \{\{first_name\}\}<\/a><\/td><td[^>]*><span class="status status-active">Envoyé<\/span><\/td><td[^>]*>[^<]+<\/td><td[^>]*>4<\/td><td[^>]*>2<\/td><td[^>]*>0<\/td><td[^>]*>1<\/td><td[^>]*>1<\/td>/,
    );
  });

  it("sends a scheduled mailing now, before its time", async () => {
    const id = await draft("Avancé");
    expect((await owner.post(`/admin/mailings/${id}/send`, { when: "later", send_at: "2031-01-10T10:00" }, `/admin/mailings/${id}`)).status).toBe(303);
    const page = await owner.request("GET", `/admin/mailings/${id}`);
    expect(page.text).toContain(`action="/admin/mailings/${id}/send"`);
    expect(page.text).toContain(`action="/admin/mailings/${id}/cancel"`);
    expect(page.text).not.toContain('name="send_at"');
    const res = await owner.post(`/admin/mailings/${id}/send`, { when: "now" }, `/admin/mailings/${id}`);
    expect(res.status).toBe(303);
    expect((await mailingOf(id)).status).toBe("sending");
    expect(await env.db.read.select().from(mailingRecipients).where(eq(mailingRecipients.mailing_id, id))).toHaveLength(4);
  });

  it("marks the member whose address bounced and the one who said no, on their page", async () => {
    const bounced = await owner.request("GET", `/admin/members/${people.bounced.id}`);
    expect(plain(bounced)).toContain("Adresse rejetée</span> <span class=\"muted small\">Les envois la sautent jusqu'à ce que l'e-mail change.");
    const no = await owner.request("GET", `/admin/members/${people.no.id}`);
    expect(no.text).toContain("Désinscrit des envois le");
    const fine = await owner.request("GET", `/admin/members/${people.emilie.id}`);
    expect(fine.text).not.toContain("Adresse rejetée");
    expect(fine.text).not.toContain("Désinscrit des envois");
  });

  it("shows the history 50 a page, newest first, with the way to the next", async () => {
    for (let i = 0; i < 50; i++)
      expect((await env.call("POST", `/api/clubs/${env.clubId}/mailings`, { body: { subject: `Lot ${i}`, body_markdown: "x" } })).status).toBe(201);
    const total = (await allMailings()).length;
    const first = await owner.request("GET", "/admin/mailings");
    const links = (html: string) => [...html.matchAll(/<a href="\/admin\/mailings\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map((m) => m[1]);
    expect(links(first.text)).toHaveLength(50);
    expect(links(first.text)[0]).toBe("Lot 49");
    expect(first.text).toContain(`${total} envois`);
    expect(first.text).toContain('href="/admin/mailings?page=2" rel="next"');
    const second = await owner.request("GET", "/admin/mailings?page=2");
    expect(links(second.text)).toHaveLength(total - 50);
  });

  it("speaks the club's language: German, Italian and English texts on the history and the compose page", async () => {
    const id = await draft("Sprachen");
    const words = {
      de: ["Neues Rundschreiben", "Entwurf speichern", "Test an mich senden"],
      it: ["Nuovo invio", "Salva la bozza", "Inviami un test"],
      en: ["New mailing", "Save draft", "Send a test to me"],
    };
    for (const [locale, [add, save, test]] of Object.entries(words)) {
      expect((await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { locale } })).status).toBe(200);
      expect((await owner.request("GET", "/admin/mailings")).text).toContain(add);
      const page = await owner.request("GET", `/admin/mailings/${id}`);
      expect(page.text).toContain(save);
      expect(page.text).toContain(test);
    }
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { locale: "fr" } });
  });

  it("lets a read-only admin see the mailings and a preview, without the buttons, and refuses their writes (403)", async () => {
    const id = await draft("Lecture seule");
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const list = await viewer.request("GET", "/admin/mailings");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('href="/admin/mailings/new"');
    const page = await viewer.request("GET", `/admin/mailings/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('class="mail-preview"');
    expect(page.text).not.toContain('id="compose-form"');
    expect(page.text).not.toContain(`/admin/mailings/${id}/send`);
    expect((await viewer.request("GET", "/admin/mailings/new")).status).toBe(403);
    expect((await viewer.post(`/admin/mailings/${id}/send`, { when: "now" }, "/admin/mailings")).status).toBe(403);
    expect((await viewer.post(`/admin/mailings/${id}/cancel`, {}, "/admin/mailings")).status).toBe(403);
    expect((await mailingOf(id)).status).toBe("draft");
  });
});
