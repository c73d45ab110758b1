// The shape of the code (issue 11): the areas of lib/ (a folder, or a top-level file such as
// lib/errors.ts) import each other as a tree, never in a cycle; db/ imports nothing from lib/;
// no file of lib/ builds an HTTP Response; the API (server/) and the dashboard (dashboard/) import
// nothing of each other, what both need lives in http/ and app/ mounts them side by side (issue
// 32)... read from the files themselves, so it stays true.
import { describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const LIB = join(ROOT, "lib");

function areaOf(file: string): string {
  const rel = relative(LIB, file);
  return rel.includes("/") ? rel.split("/")[0] : rel.replace(/\.ts$/, "");
}

/** Area -> the areas its files import (static, type-only and dynamic imports alike). */
function areaGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const rel of new Bun.Glob("**/*.ts").scanSync(LIB)) {
    const file = join(LIB, rel);
    const from = areaOf(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)) {
      const target = normalize(join(dirname(file), m[1]));
      if (!target.startsWith(`${LIB}/`)) continue;
      const to = areaOf(target.endsWith(".ts") ? target : `${target}.ts`);
      if (to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Pairs of areas that reach each other (both lie on one cycle), as `a<->b` with a < b. */
function cyclePairs(graph: Map<string, Set<string>>): string[] {
  const reach = (start: string) => {
    const seen = new Set<string>();
    const stack = [...(graph.get(start) ?? [])];
    while (stack.length) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(graph.get(next) ?? []));
    }
    return seen;
  };
  const reaches = new Map([...graph.keys()].map((a) => [a, reach(a)]));
  const pairs = new Set<string>();
  for (const [a, set] of graph) for (const b of set) if (reaches.get(b)?.has(a)) pairs.add([a, b].sort().join("<->"));
  return [...pairs].sort();
}

describe("the areas of lib/", () => {
  it("import each other without a cycle: their graph is a tree (a DAG), bottom to top", () => {
    expect(cyclePairs(areaGraph())).toEqual([]);
  });

  it("finds a cycle when there is one (the check itself works)", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(cyclePairs(graph)).toEqual(["a<->b", "a<->c", "b<->c"]);
  });
});

describe("db/", () => {
  it("imports nothing from lib/", () => {
    for (const rel of new Bun.Glob("**/*.ts").scanSync(join(ROOT, "db"))) {
      const text = readFileSync(join(ROOT, "db", rel), "utf8");
      expect(`${rel}: ${/from\s+"[./]*\/lib\//.test(text)}`).toBe(`${rel}: false`);
    }
  });
});

describe("verbs", () => {
  it("are named functions, so stack traces and readers see `listMembers` (STYLE.md)", () => {
    // verb(scope, async (ctx, input) => ...): the function given is an anonymous arrow.
    const arrow = /\bverb\(\s*(?:"[^"]*"|\[[^\]]*\])\s*,\s*(?:async\s+)?(?:\(|[A-Za-z_$][\w$]*\s*=>)/g;
    const found: string[] = [];
    for (const rel of new Bun.Glob("**/*.ts").scanSync(LIB)) {
      const text = readFileSync(join(LIB, rel), "utf8");
      for (const m of text.matchAll(arrow)) found.push(`${rel}:${text.slice(0, m.index).split("\n").length}`);
    }
    expect(found).toEqual([]);
  });
});

/** The files a file imports by a relative path (static, type-only and dynamic imports alike), from the root, without extension. */
function importedBy(file: string, text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)].map((m) => relative(ROOT, normalize(join(dirname(file), m[1]))));
}

/** `file -> imported` for each file of `from`/ that imports something under `to`/. */
function importsInto(from: string, to: string): string[] {
  const found: string[] = [];
  for (const rel of new Bun.Glob("**/*.{ts,tsx}").scanSync(join(ROOT, from))) {
    const file = join(ROOT, from, rel);
    for (const target of importedBy(file, readFileSync(file, "utf8")))
      if (target.startsWith(`${to}/`) || target === to) found.push(`${from}/${rel} -> ${target}`);
  }
  return found;
}

describe("server/, dashboard/, http/ and app/", () => {
  it("server/ imports nothing of dashboard/, and dashboard/ nothing of server/: app/ mounts both", () => {
    expect(importsInto("server", "dashboard")).toEqual([]);
    expect(importsInto("dashboard", "server")).toEqual([]);
  });

  it("what both need (http/) imports neither, nor the app above them; lib/ and db/ import none of these", () => {
    for (const to of ["server", "dashboard", "app"]) expect(importsInto("http", to)).toEqual([]);
    for (const from of ["lib", "db"]) for (const to of ["http", "server", "dashboard", "app"]) expect(importsInto(from, to)).toEqual([]);
  });

  it("the files of server/, http/ and app/ import each other without a cycle (server/loader.ts and server/openapi.ts did)", () => {
    const graph = new Map<string, Set<string>>();
    for (const dir of ["server", "http", "app"])
      for (const rel of new Bun.Glob("**/*.ts").scanSync(join(ROOT, dir))) {
        const file = join(ROOT, dir, rel);
        const targets = importedBy(file, readFileSync(file, "utf8")).filter((t) => /^(server|http|app)\//.test(t));
        graph.set(`${dir}/${rel.replace(/\.ts$/, "")}`, new Set(targets.map((t) => t.replace(/\.ts$/, ""))));
      }
    expect(graph.get("server/openapi")).toContain("server/loader");
    expect(cyclePairs(graph)).toEqual([]);
  });

  it("sees an import of the other side, static, type-only or dynamic (the check itself works)", () => {
    const text =
      'import { errorAnswer } from "../server/errors";\nimport type { Deps } from "../server/route";\nconst m = await import("./pages/../../server/loader");';
    expect(importedBy(join(ROOT, "dashboard", "index.tsx"), text)).toEqual(["server/errors", "server/route", "server/loader"]);
    // app/index.ts: the Dashboard type, the paths it owns, and the dashboard itself loaded by its first request.
    expect(importsInto("app", "dashboard")).toEqual(["app/index.ts -> dashboard", "app/index.ts -> dashboard/owns", "app/index.ts -> dashboard"]);
  });
});
