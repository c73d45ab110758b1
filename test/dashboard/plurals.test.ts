// Counted words on the dashboard take the plural form their number asks for in the club's language
// (Intl.PluralRules through lib/i18n/dashboard `plural`), never "membre(s)" or "Mitglied(er)":
// the members page's count, the journal's, and the door's "in of registered" line and queue.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { plural } from "../../lib/i18n/dashboard";
import { AUDIT_TEXTS } from "../../lib/i18n/dashboard-audit";
import { DOOR_TEXTS } from "../../lib/i18n/dashboard-door";
import { MEMBERS_TEXTS } from "../../lib/i18n/dashboard-members";
import { createEventVia, insertRegistration } from "../events-fixtures";
import { seedMember } from "../members-fixtures";
import { type DashBrowser, type Env, ownerSignedIn } from "./helpers";

let env: Env;
let owner: DashBrowser;
beforeAll(async () => {
  ({ env, owner } = await ownerSignedIn());
});
afterAll(() => env.close());

const LOCALES = ["fr", "en", "de", "it"] as const;
const inLocale = (locale: string) => env.call("PUT", `/api/clubs/${env.clubId}`, { body: { locale } });
/** The text of the page's first role=status paragraph (the list's count). */
const countOf = (html: string) => /<p class="muted" role="status">([^<]*)<\/p>/.exec(html)?.[1];

describe("plural forms on the dashboard", () => {
  it("chooses each language's form: French 0 and 1 singular, English 0 plural, German and Italian their own words", () => {
    const found = (locale: (typeof LOCALES)[number], n: number) => plural(locale, MEMBERS_TEXTS[locale].found, n);
    expect([0, 1, 2].map((n) => found("fr", n))).toEqual(["0 membre", "1 membre", "2 membres"]);
    expect([0, 1, 2].map((n) => found("en", n))).toEqual(["0 members", "1 member", "2 members"]);
    expect([0, 1, 2].map((n) => found("de", n))).toEqual(["0 Mitglieder", "1 Mitglied", "2 Mitglieder"]);
    expect([0, 1, 2].map((n) => found("it", n))).toEqual(["0 membri", "1 membro", "2 membri"]);
    // A category a language has but the text does not name (French "many", for millions) falls back to `other`.
    expect(found("fr", 1_000_000)).toBe("1000000 membres");
  });

  it("writes no form with a bracketed or slashed ending in any language", () => {
    for (const locale of LOCALES) {
      const texts = JSON.stringify([MEMBERS_TEXTS[locale].found, AUDIT_TEXTS[locale].found, DOOR_TEXTS[locale].counts, DOOR_TEXTS[locale].queued]);
      expect({ locale, odd: texts.match(/\w\((s|er|n|e|i)\)|\w\/(i|e)\b/g) }).toEqual({ locale, odd: null });
    }
  });

  it("counts the members page's results in the club's language", async () => {
    const seen: Record<string, string[]> = {};
    for (const locale of LOCALES) {
      await inLocale(locale);
      seen[locale] = [];
      for (const search of ["nobody-here", "solo-plural", "pair-plural"])
        seen[locale].push(countOf((await owner.request("GET", `/admin/members?search=${search}`)).text) ?? "");
    }
    expect(seen.fr).toEqual(["0 membre", "0 membre", "0 membre"]);
    await seedMember(env, { last_name: "Solo-plural" });
    await seedMember(env, { last_name: "Pair-plural" });
    await seedMember(env, { last_name: "Pair-plural" });
    for (const locale of LOCALES) {
      await inLocale(locale);
      seen[locale] = [];
      for (const search of ["solo-plural", "pair-plural"])
        seen[locale].push(countOf((await owner.request("GET", `/admin/members?search=${search}`)).text) ?? "");
    }
    expect(seen).toEqual({
      fr: ["1 membre", "2 membres"],
      en: ["1 member", "2 members"],
      de: ["1 Mitglied", "2 Mitglieder"],
      it: ["1 membro", "2 membri"],
    });
    await inLocale("fr");
  });

  it("counts the journal's rows with the form its number asks for", async () => {
    await inLocale("de");
    const count = countOf((await owner.request("GET", "/admin/audit")).text) ?? "";
    const n = Number(count.split(" ")[0]);
    expect(count).toBe(`${n} ${n === 1 ? "Zeile" : "Zeilen"}`);
    await inLocale("fr");
  });

  it("writes the door's line with each number's own form, and gives the script every form", async () => {
    const event = await createEventVia(env, { title: "Bal", tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }] });
    const door = `/admin/door/${event.id}`;
    const lineOf = (html: string) => /<span id="door-counts"[^>]*>([^<]*)<\/span>/.exec(html)?.[1];
    await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, first: "Una" });
    const one: Record<string, string | undefined> = {};
    for (const locale of LOCALES) {
      await inLocale(locale);
      one[locale] = lineOf((await owner.request("GET", door)).text);
    }
    expect(one).toEqual({
      fr: "0 entré sur 1 inscrit",
      en: "Checked in: 0 of 1 registered",
      de: "Eingelassen: 0 von 1 Angemeldeten",
      it: "0 entrati su 1 iscritto",
    });
    await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, first: "Due", checkedInAt: new Date().toISOString() });
    await inLocale("it");
    const page = await owner.request("GET", door);
    expect(lineOf(page.text)).toBe("1 entrato su 2 iscritti");
    // The script counts on as scans come in: it gets the forms, not a finished sentence.
    const texts = JSON.parse((/data-texts="([^"]*)"/.exec(page.text)?.[1] ?? "{}").replace(/&quot;/g, '"').replace(/&#x27;/g, "'"));
    expect(texts.counts).toEqual(DOOR_TEXTS.it.counts);
    expect(texts.queued).toEqual({ one: "{n} scansione in attesa di invio", other: "{n} scansioni in attesa di invio" });
    await inLocale("fr");
  });
});
