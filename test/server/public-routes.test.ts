// Public routes like the others: lib/ answers data and never builds an HTTP Response (http/reply
// turns a reply into one), every public route declares its rate on itself, and routes sharing a
// rate scope declare one rate.
import { describe, expect, it } from "bun:test";
import { join } from "node:path";
import { CARD_RATE_PER_MINUTE } from "../../lib/cards/public-limit";
import { loadConfig } from "../../lib/config";
import { mountRoutes } from "../../server/loader";
import { contentDisposition, replyResponse } from "../../http/reply";
import { setup } from "../helpers";
import { refusalOf } from "../refusal";

const LIB = join(import.meta.dir, "..", "..", "lib");

describe("lib/", () => {
  it("builds no HTTP Response: no `new Response(`, `Response.json(` or `Response.redirect(` in any of its files", async () => {
    const offenders: string[] = [];
    for (const file of new Bun.Glob("**/*.ts").scanSync(LIB)) {
      const text = await Bun.file(join(LIB, file)).text();
      text.split("\n").forEach((line, i) => {
        if (/new\s+Response\s*\(|Response\s*\.\s*(json|redirect)\s*\(/.test(line)) offenders.push(`lib/${file}:${i + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});

describe("public routes", () => {
  it("each declares its rate per client address (but Stripe's webhook: its signature is its authentication), and routes of one scope declare the same rate", async () => {
    const env = await setup();
    try {
      // DESIGN.md section 13: Stripe's calls come from Stripe's few addresses, in bursts; a forged one does nothing.
      const unlimited = ["POST /api/webhooks/stripe"];
      const open = env.app.routes.filter((r) => r.spec.auth === "public" && !unlimited.includes(`${r.method} ${r.path}`));
      expect(open.length).toBeGreaterThan(10);
      expect(open.filter((r) => !r.spec.rateLimit).map((r) => `${r.method} ${r.path}`)).toEqual([]);
      const scopes = new Map<string, Set<number>>();
      for (const r of open) {
        const { scope, perMinute } = r.spec.rateLimit!;
        scopes.set(scope, (scopes.get(scope) ?? new Set()).add(perMinute));
      }
      expect(Object.fromEntries([...scopes].map(([scope, rates]) => [scope, [...rates]]))).toEqual({
        cards: [300],
        "form-challenge": [60],
        health: [600],
        logos: [600],
        login: [10],
        passkit: [300],
        "public-events": [60],
        "public-registration": [20],
        "member-page": [20],
        join: [20],
        "public-club": [60],
        "oauth-metadata": [120],
        "oauth-register": [10],
        "oauth-token": [60],
        // A mailing's one-click unsubscribe link (DESIGN.md section 22).
        unsubscribe: [20],
      });
    } finally {
      env.close();
    }
  });

  it("refuses to mount two routes of one scope with different rates", async () => {
    // The real route files, with one card route's rate changed: mounting fails, naming the scope.
    const app = { route: () => app } as never;
    const logo = (await import("../../routes/c/logo/[club_id]")).GET;
    const own = logo.rateLimit;
    logo.rateLimit = { scope: "cards", perMinute: CARD_RATE_PER_MINUTE + 1 };
    try {
      expect(await refusalOf(mountRoutes(app, { config: loadConfig({}) } as never))).toMatchObject({
        message: expect.stringMatching(/rate scope "cards" declared with two rates/),
      });
    } finally {
      logo.rateLimit = own;
    }
  });
});

describe("http/reply", () => {
  it("names a plain file as before, and gives a non-ASCII name an ASCII stand-in and its exact UTF-8 form (RFC 6266)", () => {
    expect(contentDisposition("members-club-2025-01-31.csv")).toBe('attachment; filename="members-club-2025-01-31.csv"');
    expect(contentDisposition("soirée d'été.ics")).toBe(`attachment; filename="soiree d'ete.ics"; filename*=UTF-8''soir%C3%A9e%20d%27%C3%A9t%C3%A9.ics`);
    expect(contentDisposition('a"b.csv')).toBe(`attachment; filename="a_b.csv"; filename*=UTF-8''a%22b.csv`);
  });

  it("answers a redirect with 302 and Location, a file with its status, type and download name", async () => {
    const moved = replyResponse({ redirect: "https://pay.google.com/gp/v/save/x", headers: { "cache-control": "no-store" } });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("https://pay.google.com/gp/v/save/x");
    expect(moved.headers.get("cache-control")).toBe("no-store");
    const file = replyResponse({ body: "BEGIN:VCALENDAR\r\n", contentType: "text/calendar; charset=utf-8", filename: "x.ics" });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="x.ics"');
    expect(await file.text()).toBe("BEGIN:VCALENDAR\r\n");
    const empty = replyResponse({ status: 304, body: null, headers: { "last-modified": "Mon, 01 Jan 2024 00:00:00 GMT" } });
    expect(empty.status).toBe(304);
    expect(empty.headers.get("last-modified")).toBe("Mon, 01 Jan 2024 00:00:00 GMT");
  });
});
