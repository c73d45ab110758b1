// The public pages (the member's page and its forms, the join and event pages, the web card, the
// unsubscribe page) answer a person: what is refused before their handler runs (a form that
// cannot be read, an address that does not decode, a body too large, too many requests) is a
// short page in the visitor's language, never the API's JSON.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { setup, type TestEnv } from "../helpers";
import { pageTokenOf, seedMember } from "../members-fixtures";

let env: TestEnv;
let token: string;
beforeAll(async () => {
  env = await setup({ MAX_BODY_BYTES: "4096" });
  token = pageTokenOf(await seedMember(env));
});
afterAll(() => env.close());

let n = 0;
async function send(path: string, init: RequestInit = {}) {
  const res = await env.app.handle(
    new Request(`http://localhost${path}`, { ...init, headers: { "accept-language": "en", ...init.headers } }),
    `10.77.0.${++n % 250}`,
  );
  return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text(), headers: res.headers };
}

const broken = { method: "POST", headers: { "content-type": "multipart/form-data; boundary=zzz" }, body: "not a multipart body" };

describe("refusals before a page's handler are pages", () => {
  it("a form that cannot be read (malformed multipart): 400, a page saying so, not 'not valid JSON'", async () => {
    for (const path of [`/m/${token}/name`, "/join/no-such-club", "/e/no-club/no-event"]) {
      const res = await send(path, broken);
      expect({ path, status: res.status, type: res.type }).toEqual({ path, status: 400, type: "text/html; charset=utf-8" });
      expect(res.text).toContain("The form sent could not be read.");
      expect(res.text).not.toContain("JSON");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(res.headers.get("x-request-id")).toBeString();
    }
  });

  it("an address that does not decode is the page-not-found page (404), not a 422 about a path parameter", async () => {
    for (const path of ["/m/%E0%A4%A", "/c/%FF", "/join/%E0%A4%A", "/e/%FF/x", "/u/%FF", `/m/%FF/name`]) {
      const res = await send(
        path,
        path.endsWith("/name") ? { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=b" } : {},
      );
      expect({ path, status: res.status, type: res.type }).toEqual({ path, status: 404, type: "text/html; charset=utf-8" });
      expect(res.text).toContain("Page not found");
    }
  });

  it("a body over MAX_BODY_BYTES is a page (413) in the visitor's language", async () => {
    const res = await send(`/m/${token}/name`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `first_name=${"x".repeat(5000)}`,
    });
    expect({ status: res.status, type: res.type }).toEqual({ status: 413, type: "text/html; charset=utf-8" });
    expect(res.text).toContain("The request body exceeds 4096 bytes.");
  });

  it("a wrong method on a page's address is a page (405, with Allow) in the visitor's language", async () => {
    for (const [method, path] of [
      ["DELETE", `/m/${token}`],
      ["PUT", "/join/no-such-club"],
      ["DELETE", "/e/no-club/no-event"],
      ["POST", "/c/no-serial"],
      ["PUT", "/u/x"],
    ]) {
      const res = await send(path, { method, headers: { "accept-language": "de" } });
      expect({ path, status: res.status, type: res.type }).toEqual({ path, status: 405, type: "text/html; charset=utf-8" });
      expect(res.text).toContain('<html lang="de">');
      expect(res.text).toContain(`akzeptiert nur GET`);
      expect(res.headers.get("allow")).toStartWith("GET");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    }
  });

  it("an address under a page that no route takes is the page-not-found page (404) in the visitor's language", async () => {
    for (const path of [`/m/${token}/nope`, "/m", "/join/no-such-club/x", "/e/no-club", "/e/no-club/no-event/x", "/c/no-serial/nope", "/u/x/y"]) {
      const res = await send(path, { headers: { "accept-language": "it" } });
      expect({ path, status: res.status, type: res.type }).toEqual({ path, status: 404, type: "text/html; charset=utf-8" });
      expect(res.text).toContain('<html lang="it">');
      expect(res.text).not.toContain("ROUTE_NOT_FOUND");
    }
  });

  it("the API keeps its JSON for the same refusals", async () => {
    for (const [method, path, status] of [
      ["DELETE", `/api/public/manage/${token}`, 405],
      ["GET", "/api/public/nope", 404],
      ["GET", "/nope", 404],
    ] as const) {
      const res = await send(path, { method });
      expect({ path, status: res.status, type: res.type }).toEqual({ path, status, type: "application/json; charset=utf-8" });
    }
    const res = await send(`/api/public/manage/${token}/email`, { ...broken, headers: { "content-type": "application/json" }, body: "{bad" });
    expect({ status: res.status, type: res.type }).toEqual({ status: 400, type: "application/json; charset=utf-8" });
    const path = await send("/api/public/manage/%FF");
    expect(path.type).toBe("application/json; charset=utf-8");
  });
});
