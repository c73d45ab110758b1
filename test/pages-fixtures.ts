// Calls to a club's public HTML pages (/join, /e) as a browser makes them: a GET, a form posted
// url-encoded, each from an address of its own (the pages are rate-limited per address); and the
// error line the page shows beside a field.
import type { TestEnv } from "./helpers";

let ip = 0;
const address = () => `10.7.${(++ip >> 8) & 255}.${ip & 255}`;

export async function pageGet(env: TestEnv, path: string, headers: Record<string, string> = {}) {
  const res = await env.app.handle(new Request(`http://localhost${path}`, { headers }), address());
  return { status: res.status, text: await res.text(), headers: res.headers };
}

export async function pagePost(env: TestEnv, path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await env.app.handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(form),
    }),
    address(),
  );
  return { status: res.status, text: await res.text(), location: res.headers.get("location"), headers: res.headers };
}

/** The text of the error line beside the field `name` (undefined: none). */
export const errorOf = (html: string, name: string) => new RegExp(`<span class="err" id="err-${name.replace(/\./g, "_")}">([^<]*)</span>`).exec(html)?.[1];
