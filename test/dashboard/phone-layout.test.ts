// The dashboard at a phone's width (390 px) and a desktop's (1280 px) in Chromium, as issue 32
// found it: the overview's chart labels ~5 px, the members table scrolling sideways with no cue
// and cutting its dates ("30.06.202"), the navigation on four rows above the door. Measured in
// the page: rendered sizes, boxes and rows; axe-core on each page (no serious violation).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { clubs } from "../../db/schema";
import { addScan } from "../card-fixtures";
import { createEventVia, insertPayment } from "../events-fixtures";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { DESKTOP, HAS_BROWSER, launch, overflowX, PHONE, seriousViolations, signedIn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;
let eventId = "";
const pages = new Map<number, Page>();

describe.skipIf(!HAS_BROWSER)("the dashboard on a phone", () => {
  beforeAll(async () => {
    env = await setup();
    // German: the longest navigation labels, and dates as 30.06.2026.
    await env.db.tx((t) => t.update(clubs).set({ locale: "de", country: "DE" }).where(eq(clubs.id, env.clubId)));
    for (let i = 0; i < 12; i++) {
      const last = i % 3 ? "Muster" : "Wolfeschlegelsteinhausenbergerdorff-Schmidt";
      const m = await seedMember(env, {
        first_name: `Maximiliane${i}`,
        last_name: last,
        email: `sehr.lange.adresse.${i}@beispiel-verein.example.org`,
        membership_end: "2026-06-30",
      });
      // A payment and a scan this week: the charts are drawn (an empty one is only a note).
      if (i === 0) {
        const now = new Date().toISOString();
        await insertPayment(env, { kind: "membership", amount: 5000, paidAt: now, memberId: m.id });
        await addScan(env, { at: now, memberId: m.id });
      }
    }
    eventId = (await createEventVia(env, { title: "Sommerfest" })).id;
    run = await launch(env);
    for (const viewport of [DESKTOP, PHONE]) pages.set(viewport.width, await signedIn(run.browser, run.base, viewport));
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });
  const at = async (width: number, path: string) => {
    const page = pages.get(width) as Page;
    await page.goto(`${run.base}${path}`);
    return page;
  };

  for (const width of [PHONE.width, DESKTOP.width]) {
    it(`the overview's chart labels render at 11 px or more, apart, at ${width} px`, async () => {
      const page = await at(width, "/admin");
      const labels = (await page.evaluate(`[...document.querySelectorAll("figure.chart svg text")]
        .filter((t) => t.getClientRects().length > 0)
        .map((t) => {
          const box = t.getBoundingClientRect();
          return { svg: [...t.ownerSVGElement.parentElement.querySelectorAll("svg")].indexOf(t.ownerSVGElement) + ":" + t.closest("figure").id, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a, left: box.left, right: box.right, y: box.top };
        })`)) as { svg: string; px: number; left: number; right: number; y: number }[];
      expect(labels.length).toBeGreaterThanOrEqual(8);
      for (const l of labels) expect(l.px).toBeGreaterThanOrEqual(11);
      // The labels under one axis do not run into each other.
      const rows = new Map<string, typeof labels>();
      for (const l of labels) rows.set(`${l.svg}:${Math.round(l.y)}`, [...(rows.get(`${l.svg}:${Math.round(l.y)}`) ?? []), l]);
      for (const row of rows.values()) {
        const sorted = row.sort((a, b) => a.left - b.left);
        for (let i = 1; i < sorted.length; i++) expect(sorted[i].left).toBeGreaterThan(sorted[i - 1].right);
      }
      expect(await seriousViolations(page)).toEqual([]);
      expect(await overflowX(page)).toBe(0);
    });
  }

  it("the members list at 390 px: one card per member, nothing scrolls sideways, every end date whole", async () => {
    const page = await at(PHONE.width, "/admin/members");
    const wrap = (await page.evaluate(
      `(() => { const w = document.querySelector(".table-wrap"); return { scroll: w.scrollWidth, client: w.clientWidth }; })()`,
    )) as {
      scroll: number;
      client: number;
    };
    expect(wrap.scroll).toBeLessThanOrEqual(wrap.client);
    const dates = (await page.evaluate(`[...document.querySelectorAll("table.roster td.day")].map((td) => {
      const r = td.getBoundingClientRect();
      return { text: td.textContent, whole: td.scrollWidth <= td.clientWidth, inside: r.left >= 0 && r.right <= window.innerWidth };
    })`)) as { text: string; whole: boolean; inside: boolean }[];
    expect(dates).toHaveLength(12);
    for (const d of dates) expect(d).toEqual({ text: "30.06.2026", whole: true, inside: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await overflowX(page)).toBe(0);
  });

  it("the members list at 1280 px stays a table, every column shown", async () => {
    const page = await at(DESKTOP.width, "/admin/members");
    expect(await page.getByRole("columnheader").count()).toBe(6);
    expect(
      await page
        .locator("table.roster tbody tr")
        .first()
        .evaluate((tr) => getComputedStyle(tr).display),
    ).toBe("table-row");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("the door at 390 px: the navigation on one row with its current entry in view, the verdict in the first screen", async () => {
    const page = await at(PHONE.width, `/admin/door/${eventId}`);
    const nav = (await page.evaluate(`(() => {
      const ul = document.querySelector(".nav ul");
      const tops = new Set([...ul.querySelectorAll("li")].map((li) => li.offsetTop));
      const current = ul.querySelector('[aria-current="page"]').getBoundingClientRect();
      const box = ul.getBoundingClientRect();
      return { rows: tops.size, height: box.height, currentInView: current.left >= box.left && current.right <= box.right, scrolls: ul.scrollWidth > ul.clientWidth };
    })()`)) as { rows: number; height: number; currentInView: boolean; scrolls: boolean };
    expect(nav).toMatchObject({ rows: 1, currentInView: true, scrolls: true });
    expect(nav.height).toBeLessThan(50);
    const verdict = await page.locator("#verdict").boundingBox();
    expect((verdict?.y ?? 999) + (verdict?.height ?? 0)).toBeLessThan(PHONE.height / 2);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await overflowX(page)).toBe(0);
  });

  it("the navigation at 1280 px still shows every entry at once", async () => {
    const page = await at(DESKTOP.width, `/admin/door/${eventId}`);
    expect(await page.evaluate(`(() => { const ul = document.querySelector(".nav ul"); return ul.scrollWidth <= ul.clientWidth; })()`)).toBe(true);
  });
});
