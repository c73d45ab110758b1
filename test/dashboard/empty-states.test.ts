// A new club's first look at the dashboard through app.handle: the members list says there are
// none yet and leads to adding or importing them (not "no member matches", no export under an
// empty table); the overview's charts say there is nothing yet instead of an axis of "0,01 CHF".
import { describe, expect, it } from "bun:test";
import { seedMember } from "../members-fixtures";
import { withOwner } from "./helpers";

const s = withOwner();

describe("a new club's empty pages", () => {
  it("members: none yet, with the ways to add or import the first ones, and no export of nothing", async () => {
    const page = await s.owner.request("GET", "/admin/members");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Le club n&#x27;a pas encore de membre : ajoutez le premier à la main ou importez votre liste (CSV).");
    expect(page.text).not.toContain("Aucun membre ne correspond.");
    expect(page.text).not.toContain("Sans choix, tous les membres sont exportés.");
    expect(page.text).not.toContain('action="/admin/members/export"');
    const none = page.text.slice(page.text.indexOf("pas encore de membre"));
    expect(none).toMatch(/^[\s\S]*?href="\/admin\/members\/new"[\s\S]*?href="\/admin\/members\/import"/);
  });

  it("members: a search that finds nothing says so, and once there are members the export is offered", async () => {
    const search = await s.owner.request("GET", "/admin/members?search=Personne");
    expect(search.text).toContain("Aucun membre ne correspond.");
    expect(search.text).not.toContain("pas encore de membre");
    await seedMember(s.env, { first_name: "Première" });
    const list = await s.owner.request("GET", "/admin/members");
    expect(list.text).toContain("Sans choix, tous les membres sont exportés.");
    expect(list.text).toContain('action="/admin/members/export"');
  });

  it("overview: the empty charts say there is nothing yet, with no axis scaled to 0,01 CHF or 1", async () => {
    const page = await s.owner.request("GET", "/admin");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Aucune recette sur ces 12 mois pour l&#x27;instant : le graphique se remplira avec les premiers paiements.");
    expect(page.text).toContain("Pas encore d&#x27;entrée contrôlée sur ces 12 semaines");
    expect(page.text).not.toMatch(/0,01\s?CHF/);
    expect(page.text).not.toContain("<svg");
  });
});
