// Path patterns, the one way the API's route table (server/loader.ts) and the dashboard's
// (dashboard/index.tsx) read an address: `/clubs/:club_id/members` compiled once, matched segment
// for segment, its parameters decoded and ids lower-cased (ours are stored lower-case). Where
// several patterns match, the one with more fixed segments wins (`/members/new` before
// `/members/:member_id`), as Elysia's router chooses.

export type PathPattern = {
  /** The pattern as written (`/clubs/:club_id`). */
  path: string;
  regex: RegExp;
  /** Segments that are not parameters: the more, the more specific. */
  fixed: number;
  /** Number of segments: only patterns as deep as an address can match it. */
  depth: number;
};

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `path` compiled: `:name` segments become named groups. `trailingSlash`: `/x/` matches too. */
export function compilePath(path: string, options: { trailingSlash?: boolean } = {}): PathPattern {
  const segments = path.split("/");
  const source = segments.map((seg) => (seg.startsWith(":") ? `(?<${seg.slice(1)}>[^/]+)` : literal(seg))).join("/");
  return {
    path,
    regex: new RegExp(`^${source}${options.trailingSlash ? "/?" : ""}$`),
    fixed: segments.filter((seg) => !seg.startsWith(":")).length,
    depth: segments.length,
  };
}

/** The raw parameters of `address` when `pattern` matches it, else null. */
export function matchPath(pattern: PathPattern, address: string, depth = address.split("/").length): Record<string, string> | null {
  // A trailing slash adds an empty last segment: `/x/` is as deep as `/x` for a pattern that allows it.
  if (depth !== pattern.depth && !(depth === pattern.depth + 1 && address.endsWith("/"))) return null;
  const m = pattern.regex.exec(address);
  return m ? (m.groups ?? {}) : null;
}

/** A parameter as handlers get it: decoded, an id lower-cased; null when it does not decode (`%E0%A4%A`). */
export function decodeParam(name: string, raw: string): string | null {
  try {
    const value = decodeURIComponent(raw);
    return name.endsWith("_id") ? value.toLowerCase() : value;
  } catch {
    return null;
  }
}

/** Most specific first: more fixed segments before fewer. */
export const bySpecificity = <T extends { pattern: PathPattern }>(a: T, b: T): number => b.pattern.fixed - a.pattern.fixed;
