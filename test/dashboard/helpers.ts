// Dashboard test helpers: a browser's requests through app.handle (cookies kept by hand), the
// sign-in of an admin, and the CSRF token a signed-in page carries.
import { afterAll, beforeAll } from "bun:test";
import { setup } from "../helpers";

export type Env = Awaited<ReturnType<typeof setup>>;
export type Page = { status: number; text: string; headers: Headers };

let browsers = 0;

/**
 * A browser of the dashboard: keeps the cookies it is given, follows nothing by itself. Each has
 * its own client address, so the sign-in's rate per address (10 a minute) does not add up across a file's tests.
 */
export function browser(env: Env) {
  const jar = new Map<string, string>();
  browsers++;
  const ip = `10.${(browsers >> 8) & 255}.${browsers & 255}.1`;
  async function request(
    method: string,
    path: string,
    opts: { form?: Record<string, string | string[] | File>; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const headers: Record<string, string> = { ...opts.headers };
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    let body: BodyInit | undefined;
    if (opts.form) {
      const hasFile = Object.values(opts.form).some((v) => v instanceof File);
      if (hasFile) {
        const fd = new FormData();
        for (const [k, v] of Object.entries(opts.form)) for (const one of Array.isArray(v) ? v : [v]) fd.append(k, one);
        body = fd;
      } else {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(opts.form)) for (const one of Array.isArray(v) ? v : [v as string]) params.append(k, one);
        body = params;
      }
    }
    const res = await env.app.handle(new Request(`http://localhost${path}`, { method, headers, body }), ip);
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...value] = pair.split("=");
      if (/Max-Age=0/.test(cookie)) jar.delete(name);
      else jar.set(name, value.join("="));
    }
    return { status: res.status, text: await res.text(), headers: res.headers };
  }
  /** The hidden `_csrf` of the last form in a page. */
  function csrfOf(page: Page): string {
    const all = [...page.text.matchAll(/name="_csrf" value="([^"]+)"/g)];
    if (!all.length) throw new Error("no CSRF field in the page");
    return all[all.length - 1][1];
  }
  async function signIn(email = "owner@test.org", password = "owner-password"): Promise<Page> {
    const form = await request("GET", "/admin/login");
    return request("POST", "/admin/login", { form: { _csrf: csrfOf(form), email, password } });
  }
  /** Posts a form as the page at `from` would (with its CSRF token). */
  async function post(path: string, form: Record<string, string | string[] | File> = {}, from = "/admin"): Promise<Page> {
    const page = await request("GET", from);
    return request("POST", path, { form: { _csrf: csrfOf(page), ...form } });
  }
  return { request, signIn, post, csrfOf, jar };
}

export type DashBrowser = ReturnType<typeof browser>;

/** A browser signed in as a new read-only admin of the club (every area at view). */
export async function readOnlySignedIn(env: Env): Promise<DashBrowser> {
  const admin = await env.makeAdmin({ readOnly: true });
  const reader = browser(env);
  await reader.signIn(admin.email, "admin-password");
  return reader;
}

/** A fresh app with its owner signed in (a test file's `beforeAll`). */
export async function ownerSignedIn(envVars: Record<string, string> = {}): Promise<{ env: Env; owner: DashBrowser }> {
  const env = await setup(envVars);
  const owner = browser(env);
  await owner.signIn();
  return { env, owner };
}

/** For a test file: a fresh service with its owner signed in, made before its tests and closed after them. */
export function withOwner(envVars: Record<string, string> = {}) {
  const state = {} as { env: Env; owner: DashBrowser };
  beforeAll(async () => {
    Object.assign(state, await ownerSignedIn(envVars));
  });
  afterAll(() => state.env.close());
  return state;
}
