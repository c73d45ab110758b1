// The table of every mounted route, read before Elysia parses anything: which methods a path
// takes and who may call each (the route file's own `auth` is the one place that says it). The
// pipeline uses it to answer an unknown path 404 and a wrong method 405 whoever asks, to answer
// CORS preflights, and to know whether a request needs credentials before its body is read.
import type { MountedRoute } from "./loader";
import { DOCS_PATH, SPEC_PATH } from "./openapi";
import type { Auth } from "./route";

export type PathMatch = {
  /** The methods the path takes (`ALL`: any). */
  methods: string[];
  /** Who may call the path with `method`; the first route's auth for a method it does not take. */
  authOf(method: string): Auth;
};

export type RouteTable = { match(path: string): PathMatch | null };

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const DOCS: PathMatch = { methods: ["GET"], authOf: () => "public" };

export function routeTable(routes: MountedRoute[]): RouteTable {
  const table = routes.map((r) => ({
    method: r.method,
    pattern: new RegExp(`^${r.path.split(/:\w+/).map(literal).join("[^/]+")}$`),
    auth: r.spec.auth ?? "key",
  }));
  return {
    match(path) {
      if (path === SPEC_PATH || path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`)) return DOCS;
      const found = table.filter((r) => r.pattern.test(path));
      if (!found.length) return null;
      return {
        methods: [...new Set(found.map((r) => r.method))],
        authOf: (method) => (found.find((r) => r.method === method || r.method === "ALL") ?? found[0]).auth,
      };
    },
  };
}

/** Whether `method` is one the path takes (HEAD goes where GET goes). */
export function takesMethod(match: PathMatch, method: string): boolean {
  const m = method === "HEAD" ? "GET" : method;
  return match.methods.includes("ALL") || match.methods.includes(m);
}
