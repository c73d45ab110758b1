// Event times in the dashboard (issue 32): typed on the club's wall clock (its zone, from its
// country), stored in UTC, shown in every admin form and list with the zone named; 19:00 typed is
// 19:00 on the public page, summer and winter; the hour the clocks skip in spring is refused (422)
// beside its field, and nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, events, promoCodes } from "../../db/schema";
import { createEventVia } from "../events-fixtures";
import { type DashBrowser, type Env, ownerSignedIn } from "./helpers";

let env: Env;
let owner: DashBrowser;
beforeAll(async () => {
  ({ env, owner } = await ownerSignedIn());
});
afterAll(() => env.close());

const NEW = "/admin/events/new";
const form = (title: string, starts: string, over: Record<string, string> = {}) => ({
  title,
  starts_at: starts,
  access: "public",
  max_per_email: "1",
  listed: "yes",
  publish: "yes",
  t0_name: "Entrée",
  t0_member: "0",
  t0_nonmember: "10",
  ...over,
});
const byTitle = async (title: string) => (await env.db.read.select().from(events).where(eq(events.title, title)))[0];
const idFrom = (location: string | null) => (location ?? "").match(/events\/([0-9a-f-]{36})/)?.[1] ?? "";
const publicPage = async (url: string) => (await env.app.handle(new Request(url))).text();

describe("an event typed in the club's zone (Europe/Zurich: a club without a country)", () => {
  it("stores 19:00 of a summer evening as 17:00 UTC, and the public page says 19:00", async () => {
    const res = await owner.post(NEW, form("Été", "2031-07-01T19:00", { ends_at: "2031-07-01T23:30" }), NEW);
    expect(res.status).toBe(303);
    const row = await byTitle("Été");
    expect(row).toMatchObject({ starts_at: "2031-07-01T17:00:00.000Z", ends_at: "2031-07-01T21:30:00.000Z" });
    const detail = (await env.call("GET", `/api/clubs/${env.clubId}/events/${row.id}`)).body;
    expect(await publicPage(detail.public_url)).toContain("19:00");
  });

  it("stores 19:00 of a winter evening as 18:00 UTC, and the public page says 19:00", async () => {
    await owner.post(NEW, form("Hiver", "2031-01-15T19:00"), NEW);
    const row = await byTitle("Hiver");
    expect(row.starts_at).toBe("2031-01-15T18:00:00.000Z");
    const detail = (await env.call("GET", `/api/clubs/${env.clubId}/events/${row.id}`)).body;
    expect(await publicPage(detail.public_url)).toContain("19:00");
  });

  it("refuses 02:30 on the night the clocks go forward (422 beside the field), nothing written", async () => {
    const res = await owner.post(NEW, form("Nuit du changement", "2031-03-30T02:30"), NEW);
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/id="f-starts_at-error" class="error-text">2031-03-30 02:30 n&#x27;existe pas en Europe\/Zurich/);
    expect(res.text).toContain('value="2031-03-30T02:30"');
    expect(await byTitle("Nuit du changement")).toBeUndefined();
    // The same on an edit, for any of the event's times.
    const event = await createEventVia(env, { title: "À modifier", starts_at: "2031-03-29T18:00:00Z" });
    const path = `/admin/events/${event.id}/edit`;
    const edit = await owner.post(path, form("À modifier", "2031-03-29T20:00", { registration_closes_at: "2031-03-30T02:15" }), path);
    expect(edit.status).toBe(422);
    expect(edit.text).toContain('id="f-registration_closes_at-error"');
    expect((await byTitle("À modifier")).registration_closes_at).toBeNull();
  });

  it("shows the local times, zone named, in the list, the event's page and its edit form", async () => {
    const id = (await byTitle("Été")).id;
    const list = await owner.request("GET", "/admin/events");
    expect(list.text).toContain("Date (Europe/Zurich)");
    expect(list.text).toMatch(/1 juil\. 2031, 19:00/);
    const page = await owner.request("GET", `/admin/events/${id}`);
    expect(page.text).toContain("<dt>Début (Europe/Zurich)</dt><dd>1 juil. 2031, 19:00</dd>");
    expect(page.text).not.toContain("UTC");
    const edit = await owner.request("GET", `/admin/events/${id}/edit`);
    expect(edit.text).toContain('value="2031-07-01T19:00"');
    expect(edit.text).toContain('value="2031-07-01T23:30"');
    expect(edit.text).toContain("Heure locale du club (Europe/Zurich).");
    expect(edit.text).not.toContain("UTC");
    // Saved again untouched, the times stay.
    expect(
      (await owner.post(`/admin/events/${id}/edit`, form("Été", "2031-07-01T19:00", { ends_at: "2031-07-01T23:30" }), `/admin/events/${id}/edit`)).status,
    ).toBe(303);
    expect(await byTitle("Été")).toMatchObject({ starts_at: "2031-07-01T17:00:00.000Z", ends_at: "2031-07-01T21:30:00.000Z" });
  });

  it("takes a promo code's limit on the club's wall clock too, and refuses the skipped hour", async () => {
    const path = "/admin/promo-codes/new";
    const ok = await owner.post(path, { code: "ETE2031", discount_type: "percent", discount_value: "10", valid_until: "2031-08-31T23:59" }, path);
    expect(ok.status).toBe(303);
    const [row] = await env.db.read.select().from(promoCodes).where(eq(promoCodes.code, "ETE2031"));
    expect(row.valid_until).toBe("2031-08-31T21:59:00.000Z");
    expect((await owner.request("GET", "/admin/promo-codes")).text).toContain("31 août 2031, 23:59");
    const gap = await owner.post(path, { code: "NUIT2031", discount_type: "percent", discount_value: "10", valid_from: "2031-03-30T02:00" }, path);
    expect(gap.status).toBe(422);
    expect(gap.text).toContain('id="f-valid_from-error"');
    expect((await env.db.read.select().from(promoCodes).where(eq(promoCodes.code, "NUIT2031"))).length).toBe(0);
  });
});

it("a club in Germany types and reads its times in Europe/Berlin", async () => {
  await env.db.tx((t) => t.update(clubs).set({ country: "DE" }).where(eq(clubs.id, env.clubId)));
  const res = await owner.post(NEW, form("Berlin", "2031-07-02T20:00"), NEW);
  const id = idFrom(res.headers.get("location"));
  expect((await byTitle("Berlin")).starts_at).toBe("2031-07-02T18:00:00.000Z");
  const page = await owner.request("GET", `/admin/events/${id}`);
  expect(page.text).toContain("<dt>Début (Europe/Berlin)</dt><dd>2 juil. 2031, 20:00</dd>");
  expect((await owner.request("GET", `/admin/events/${id}/edit`)).text).toContain("Heure locale du club (Europe/Berlin).");
});
