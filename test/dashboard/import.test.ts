// The dashboard's import page (/admin/members/import) through app.handle: the preview of a
// season's spreadsheet with typos, then "Import the N good lines (skip M)" or "Fix and upload
// again"; the result says what was written and never "Import done" when nothing was; a default
// tier; the warning when the club sells memberships at 0. Checked in the database each time.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq, like } from "drizzle-orm";
import { auditLog, clubs, members } from "../../db/schema";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { browser, type DashBrowser, type Env, ownerSignedIn, type Page } from "./helpers";

let env: Env;
let owner: DashBrowser;
beforeAll(async () => {
  env = await setup();
  owner = browser(env);
  await owner.signIn();
});
afterAll(() => env.close());

const HEADER = "prénom;nom;e-mail;fin d'adhésion";
const file = (lines: string[], header = HEADER) => new File([[header, ...lines].join("\r\n")], "saison.csv", { type: "text/csv" });

/** A season's spreadsheet of `n` members, `tag` in their emails, with a typo on the lines (1-based, after the header) in `bad`. */
function season(tag: string, n: number, bad: number[] = []): File {
  return file(
    Array.from({ length: n }, (_, i) => {
      const line = i + 1;
      if (bad[0] === line) return `Anna;Typo${line};${tag}-${line}(at)test.org;30.06.2027`;
      if (bad[1] === line) return `Bruno;Typo${line};${tag}-${line}@test.org;31.02.2027`;
      return `Membre${line};Nom${line};${tag}-${line}@test.org;30.06.2027`;
    }),
  );
}

const importAs = (form: Record<string, string | File>) => owner.post("/admin/members/import", form, "/admin/members/import");
const previewedOf = (page: Page) => /name="previewed" value="([0-9a-f]{64})"/.exec(page.text)?.[1] ?? "";
const statusOf = (page: Page) => /<p role="status">([^<]*)<\/p>/.exec(page.text)?.[1] ?? "";
const count = async (tag: string) =>
  (
    await env.db.read
      .select({ id: members.id })
      .from(members)
      .where(like(members.email, `${tag}-%`))
  ).length;

describe("a 300-line spreadsheet with two bad lines", () => {
  it("previews 298 good lines and the 2 errors, writes nothing, and offers both ways on", async () => {
    const res = await importAs({ file: season("prev", 300, [17, 254]), mode: "create", run: "preview" });
    expect(res.status).toBe(200);
    expect(statusOf(res)).toBe("300 lignes lues : 298 à créer, 0 à mettre à jour, 0 sans changement, 2 en erreur.");
    expect(res.text).toContain("Importer les 298 lignes correctes (ignorer 2)");
    expect(res.text).toContain('form="import-form" name="run" value="partial"');
    expect(res.text).toContain("Corriger et téléverser à nouveau");
    // The two lines, each with what is wrong.
    expect(res.text).toMatch(/<td class="num">18<\/td><td>Adresse e-mail invalide : « prev-17\(at\)test.org »/);
    expect(res.text).toMatch(/<td class="num">255<\/td><td>Date invalide dans « fin d&#x27;adhésion » : « 31.02.2027 »/);
    expect(res.text).not.toContain("Import terminé");
    // Line by line in the secretary's words: the form's labels, dates as dates, no field names.
    expect(res.text).toMatch(
      /<li>Ligne 2 : prev-1@test.org, nouveau membre — Prénom : Membre1 · Nom : Nom1 · Début : \d+ [^·]+ · Fin d&#x27;adhésion : 30 juin 2027 · Paiement : payé<\/li>/,
    );
    expect(res.text).not.toContain("membership_end");
    expect(await count("prev")).toBe(0);
  });

  it("imports the 298 good lines when asked, and says so: 298 created, 2 lines skipped", async () => {
    const preview = await importAs({ file: season("good", 300, [17, 254]), mode: "create", run: "preview" });
    const res = await importAs({ file: season("good", 300, [17, 254]), mode: "create", run: "partial", previewed: previewedOf(preview) });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h2 id="import-result-title">Import terminé</h2>');
    expect(statusOf(res)).toBe("Écrit : 298 membres créés, 0 mis à jour. 2 lignes en erreur ignorées, ci-dessous.");
    expect(res.text).toMatch(/<td class="num">18<\/td>/);
    expect(await count("good")).toBe(298);
    const emails = (await env.db.read.select({ email: members.email }).from(members).where(like(members.email, "good-%"))).map((m) => m.email);
    expect(emails).not.toContain("good-254@test.org");
    expect(emails).toContain("good-300@test.org");
  });

  it("never says the import is done when nothing was written: an all-or-nothing run stopped by errors", async () => {
    const preview = await importAs({ file: season("stop", 300, [17, 254]), mode: "create", run: "preview" });
    const res = await importAs({ file: season("stop", 300, [17, 254]), mode: "create", run: "import", previewed: previewedOf(preview) });
    expect(res.text).not.toContain("Import terminé");
    expect(res.text).toContain("Rien n&#x27;a été importé");
    expect(statusOf(res)).toBe("Rien n&#x27;a été écrit : 2 lignes en erreur, ci-dessous.");
    expect(await count("stop")).toBe(0);
  });

  it("offers to import all the lines of a clean file, and writes what the preview showed", async () => {
    const preview = await importAs({ file: season("clean", 40), mode: "create", run: "preview" });
    expect(preview.text).toContain("Importer les 40 lignes");
    expect(preview.text).not.toContain("Corriger et téléverser à nouveau");
    const res = await importAs({ file: season("clean", 40), mode: "create", run: "import", previewed: previewedOf(preview) });
    expect(statusOf(res)).toBe("Écrit : 40 membres créés, 0 mis à jour.");
    expect(await count("clean")).toBe(40);
  });

  it("counts in words, one and many: a one-line file is one line read, imported as one member", async () => {
    const preview = await importAs({ file: season("one", 1), mode: "create", run: "preview" });
    expect(statusOf(preview)).toBe("1 ligne lue : 1 à créer, 0 à mettre à jour, 0 sans changement, 0 en erreur.");
    expect(preview.text).toContain(">Importer la ligne</button>");
    const res = await importAs({ file: season("one", 1), mode: "create", run: "import", previewed: previewedOf(preview) });
    expect(statusOf(res)).toBe("Écrit : 1 membre créé, 0 mis à jour.");
  });

  it("writes nothing when the file or the options changed since the preview (409), and previews the new choice", async () => {
    const preview = await importAs({ file: season("swap", 10), mode: "create", run: "preview" });
    const otherFile = await importAs({ file: season("swap", 12), mode: "create", run: "import", previewed: previewedOf(preview) });
    expect(otherFile.status).toBe(409);
    expect(otherFile.text).toContain("ont changé depuis l&#x27;aperçu");
    expect(otherFile.text).toContain("Importer les 12 lignes");
    const otherMode = await importAs({ file: season("swap", 10), mode: "update", run: "import", previewed: previewedOf(preview) });
    expect(otherMode.status).toBe(409);
    const forged = await importAs({ file: season("swap", 10), mode: "create", run: "partial" });
    expect(forged.status).toBe(409);
    expect(await count("swap")).toBe(0);
  });

  it("says nothing can be imported when no line is good, and offers only to fix the file", async () => {
    const res = await importAs({ file: file(["Anna;Roy;nope;30.06.2027"]), mode: "create", run: "preview" });
    expect(res.text).toContain("Aucune ligne ne peut être importée.");
    expect(res.text).not.toContain('name="run" value="partial"');
    expect(res.text).toContain("Corriger et téléverser à nouveau");
  });

  it("asks for the file again when an import comes without it (no JavaScript: the browser does not keep it)", async () => {
    const res = await importAs({ mode: "create", run: "partial", previewed: "0".repeat(64) });
    expect(res.status).toBe(422);
    expect(res.text).toContain("Choisissez à nouveau le fichier");
    const none = await importAs({ mode: "create", run: "preview" });
    expect(none.status).toBe(422);
    expect(none.text).toContain("Choisissez un fichier CSV.");
  });
});

describe("modes and tiers", () => {
  it("updates with mode=update and refuses an unknown mode (422, nothing written), as the API's query schema does", async () => {
    const m = await seedMember(env, { email: "import-update@test.org", first_name: "Before" });
    const update = (mode: string, previewed = "") =>
      importAs({ file: file(["After;Lovelace;import-update@test.org;01.01.2031"]), mode, run: previewed ? "import" : "preview", previewed });
    expect((await update("merge")).status).toBe(422);
    const preview = await update("update");
    expect(statusOf(preview)).toContain("1 à mettre à jour");
    expect(preview.text).toMatch(
      /<li>Ligne 2 : import-update@test.org, mis à jour — Prénom : Before → After · [^<]*Fin d&#x27;adhésion : [^<]+ → 1 janv. 2031[^<]*<\/li>/,
    );
    expect((await update("update", previewedOf(preview))).status).toBe(200);
    expect((await env.db.read.select().from(members).where(eq(members.id, m.id)))[0].first_name).toBe("After");
  });

  it("says how to update a known member with the page's own control, not the API's mode=update", async () => {
    await seedMember(env, { email: "import-known@test.org" });
    const preview = await importAs({ file: file(["Ada;Lovelace;import-known@test.org;01.01.2031"]), mode: "create", run: "preview" });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain(
      "Un membre a déjà l&#x27;adresse import-known@test.org : ligne laissée de côté, rien n&#x27;est changé. Pour le mettre à jour, choisissez « Membres déjà connus » → « Les mettre à jour ».",
    );
    expect(preview.text).not.toContain("mode=update");
  });

  it("offers the club's active tiers as the default, shows it in the preview, and writes it", async () => {
    const tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Saison", price_cents: 8000 } })).body;
    await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Archivée", price_cents: 1, is_active: false } });
    const page = await owner.request("GET", "/admin/members/import");
    expect(page.text).toMatch(new RegExp(`<option value="${tier.id}">Saison \\(80[.,]00\\s?CHF\\)</option>`));
    expect(page.text).not.toContain("Archivée");
    const preview = await importAs({ file: season("tier", 3), mode: "create", tier_id: tier.id, run: "preview" });
    expect(preview.text).toContain("· Catégorie : Saison");
    await importAs({ file: season("tier", 3), mode: "create", tier_id: tier.id, run: "import", previewed: previewedOf(preview) });
    const rows = await env.db.read.select({ tier_id: members.tier_id }).from(members).where(like(members.email, "tier-%"));
    expect(rows.map((r) => r.tier_id)).toEqual([tier.id, tier.id, tier.id]);
  });

  it("refuses a default tier that is not the club's with 422 and its message; nothing written", async () => {
    const res = await importAs({ file: season("badtier", 2), mode: "create", tier_id: crypto.randomUUID(), run: "preview" });
    expect(res.status).toBe(422);
    expect(res.text).toContain("n&#x27;est pas une formule de ce club.");
    expect(await count("badtier")).toBe(0);
  });

  it("answers a file over MAX_BODY_BYTES with a page (413), not the API's JSON", async () => {
    const small = await ownerSignedIn({ MAX_BODY_BYTES: "1024" });
    try {
      const res = await small.owner.post("/admin/members/import", { file: season("big", 60), mode: "create", run: "preview" }, "/admin/members/import");
      expect(res.status).toBe(413);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.text).toContain('role="alert"');
      // Refused or not, a signed-in admin's write leaves its audit row, as a key's 413 does; the page keeps the admin's layout.
      expect(res.text).toContain("Se déconnecter");
      await small.env.app.audit.drain();
      const rows = await small.env.db.read
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.via, "dashboard"), eq(auditLog.status, 413)));
      expect(rows.map((r) => [r.method, r.path, r.admin_id !== null])).toEqual([["POST", "/admin/members/import", true]]);
    } finally {
      small.env.close();
    }
  });
});

describe("selling memberships at 0", () => {
  it("warns on the import and settings pages while the fee is 0 and no active tier has a price; not once one has", async () => {
    const fresh = await ownerSignedIn();
    try {
      const warned = async () => {
        const pages = [await fresh.owner.request("GET", "/admin/members/import"), await fresh.owner.request("GET", "/admin/settings")];
        return pages.map((p) => p.text.includes('id="zero-price"'));
      };
      expect(await warned()).toEqual([true, true]);
      // A tier at 0 or an inactive priced tier sells nothing either.
      await fresh.env.call("POST", `/api/clubs/${fresh.env.clubId}/tiers`, { body: { name: "Libre", price_cents: 0 } });
      await fresh.env.call("POST", `/api/clubs/${fresh.env.clubId}/tiers`, { body: { name: "Ancienne", price_cents: 5000, is_active: false } });
      expect(await warned()).toEqual([true, true]);
      const priced = await fresh.env.call("POST", `/api/clubs/${fresh.env.clubId}/tiers`, { body: { name: "Adulte", price_cents: 5000 } });
      expect(await warned()).toEqual([false, false]);
      // The fee alone is enough too.
      await fresh.env.call("PUT", `/api/clubs/${fresh.env.clubId}/tiers/${priced.body.id}`, { body: { is_active: false } });
      expect(await warned()).toEqual([true, true]);
      await fresh.env.db.tx((t) => t.update(clubs).set({ membership_fee_cents: 4000 }).where(eq(clubs.id, fresh.env.clubId)));
      expect(await warned()).toEqual([false, false]);
    } finally {
      fresh.env.close();
    }
  });
});
