// Values drawn from the JSON Schemas of the OpenAPI description, reproducibly (a seeded generator):
// `valid` builds a value the schema accepts (ids and codes taken from a pool of real ones where a
// field's name asks for one), `mutate` breaks a valid value in one of the ways clients do.
import fc from "fast-check";

// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema (or any JSON document) read from the wire is untyped.
export type Schema = Record<string, any>;

/** mulberry32: small, fast, and the same sequence for the same seed. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  uuid(): string {
    const hex = () => this.int(0, 15).toString(16);
    const part = (n: number) => Array.from({ length: n }, hex).join("");
    return `${part(8)}-${part(4)}-4${part(3)}-${this.pick(["8", "9", "a", "b"])}${part(3)}-${part(12)}`;
  }
}

/** Strings a parser or a database may choke on, none of them valid ids. */
export const ODD_STRINGS = [
  "",
  " ",
  "é",
  "Zoë Ørsted-Łukasz",
  "😀👍🏽",
  "\u202egnp.exe",
  "e\u0301\u0301\u0301",
  "\u0000",
  "\ud800",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%00",
  "../../etc/passwd",
  "null",
  "NaN",
  "-1",
  "1e309",
  "日本語のテキスト",
  "\t\n\r",
];

export const HUGE = "x".repeat(100_000);

/** Pools of real values for fields and parameters named like ids or codes. */
export type Pools = Record<string, () => unknown>;

export class SchemaValues {
  private readonly patternCache = new Map<string, fc.Arbitrary<string>>();

  constructor(
    private readonly components: Record<string, Schema>,
    readonly rng: Rng,
    private readonly pools: Pools = {},
    /** How often an optional property is filled in (0: required ones only). */
    private readonly optionalChance = 0.5,
  ) {}

  resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let i = 0; i < 20 && typeof s.$ref === "string"; i++) s = this.components[s.$ref.split("/").pop() as string] ?? {};
    return s;
  }

  /** The branches of a union, or the schema itself. */
  branches(schema: Schema): Schema[] {
    const s = this.resolve(schema);
    const list = s.anyOf ?? s.oneOf;
    if (list) return list.flatMap((b: Schema) => this.branches(b));
    if (Array.isArray(s.type)) return s.type.map((type: string) => ({ ...s, type }));
    return [s];
  }

  isNullable(schema: Schema): boolean {
    return this.branches(schema).some((b) => b.type === "null" || b.enum?.includes(null));
  }

  private fromPattern(pattern: string): string {
    let arb = this.patternCache.get(pattern);
    if (!arb) {
      arb = fc.stringMatching(new RegExp(pattern));
      this.patternCache.set(pattern, arb);
    }
    return fc.sample(arb, { seed: this.rng.int(0, 2 ** 31 - 1), numRuns: 1 })[0];
  }

  private day(offsetDays: number): string {
    return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
  }

  private validString(s: Schema, name?: string): string {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Math.max(min, 30);
    let value: string;
    switch (s.format) {
      case "uuid":
        value = this.rng.uuid();
        break;
      case "email":
        value = `fuzz${this.rng.int(0, 1e9)}@example.org`;
        break;
      case "date":
        // Now and then the ends of the calendar: date arithmetic breaks there.
        value = this.rng.chance(0.06) ? this.rng.pick(["9999-12-31", "9999-12-01", "0001-01-01", "2000-02-29"]) : this.day(this.rng.int(-400, 800));
        break;
      case "date-time":
        value = this.rng.chance(0.04)
          ? this.rng.pick(["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "2026-03-29T02:30:00+14:00"])
          : new Date(Date.now() + this.rng.int(-400, 800) * 86_400_000 + this.rng.int(0, 86_399_999)).toISOString();
        break;
      case "uri":
      case "url":
        value = `https://example.org/${this.rng.int(0, 1e6)}`;
        break;
      default: {
        if (s.pattern) return this.fromPattern(s.pattern);
        const len = this.rng.int(Math.max(min, 1), Math.min(max, min + 24));
        const alphabet = this.rng.chance(0.2) ? "aéöçß日本😀 -" : "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        const chars = [...alphabet];
        value = Array.from({ length: len }, () => this.rng.pick(chars)).join("");
        if (name && /url$/.test(name)) value = `https://example.org/${value.replace(/[^a-z0-9]/gi, "")}`;
        if (name && /color/.test(name)) value = `#${this.rng.int(0, 0xffffff).toString(16).padStart(6, "0")}`;
      }
    }
    if (s.pattern && !new RegExp(s.pattern).test(value)) return this.fromPattern(s.pattern);
    return value;
  }

  private validNumber(s: Schema, integer: boolean): number {
    const lo = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? (this.rng.chance(0.1) ? -1000 : 0));
    const hi = s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : (s.maximum ?? lo + 10_000);
    const top = Math.min(hi, lo + 10_000);
    // Now and then a bound itself.
    if (this.rng.chance(0.08)) return this.rng.pick([lo, hi].filter((n) => Number.isFinite(n) && (!integer || Number.isInteger(n))).concat([lo]));
    return integer ? this.rng.int(Math.ceil(lo), Math.floor(top)) : Math.round((lo + this.rng.next() * (top - lo)) * 1000) / 1000;
  }

  /** A value `schema` accepts; `name` is the field's name (a pool may supply a real one). */
  valid(schema: Schema | undefined, name?: string, depth = 0): unknown {
    const s = this.resolve(schema);
    if (name && this.pools[name] && (this.optionalChance === 0 || this.rng.chance(0.8))) return this.pools[name]();
    if ("const" in s) return s.const;
    if (s.enum) return this.rng.pick(s.enum);
    const branches = this.branches(s);
    if (branches.length > 1 || branches[0] !== s) {
      const nonNull = branches.filter((b) => b.type !== "null");
      const branch = nonNull.length && this.rng.chance(0.85) ? this.rng.pick(nonNull) : this.rng.pick(branches);
      return this.valid({ ...s, anyOf: undefined, oneOf: undefined, type: undefined, ...branch }, name, depth);
    }
    switch (s.type) {
      case "null":
        return null;
      case "boolean":
        return this.rng.chance(0.5);
      case "integer":
        return this.validNumber(s, true);
      case "number":
        return this.validNumber(s, false);
      case "string":
        return this.validString(s, name);
      case "array": {
        const min = s.minItems ?? 0;
        const n = depth > 3 ? min : this.rng.int(min, Math.min(s.maxItems ?? min + 3, min + 3));
        return Array.from({ length: n }, () => this.valid(s.items, undefined, depth + 1));
      }
      case "object":
        return this.validObject(s, depth);
      default:
        if (s.properties) return this.validObject(s, depth);
        return this.rng.pick([1, "x", true, null, { a: 1 }]);
    }
  }

  private validObject(s: Schema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required: string[] = s.required ?? [];
    for (const [key, prop] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      if (required.includes(key) || (depth < 3 && this.rng.chance(this.optionalChance))) out[key] = this.valid(prop, key, depth + 1);
    }
    if (!s.properties && s.additionalProperties && typeof s.additionalProperties === "object" && this.rng.chance(0.5)) {
      out[`k${this.rng.int(0, 99)}`] = this.valid(s.additionalProperties, undefined, depth + 1);
    }
    return out;
  }

  /** A value of another JSON type than the schema wants. */
  wrongType(schema: Schema): unknown {
    const types = new Set(this.branches(schema).map((b) => b.type ?? (b.properties ? "object" : "any")));
    const candidates: [string, unknown][] = [
      ["string", this.rng.pick(ODD_STRINGS)],
      ["integer", this.rng.pick([0, -1, 42, 2 ** 53 + 1])],
      ["number", this.rng.pick([0.5, -1e20, 1e300])],
      ["boolean", this.rng.chance(0.5)],
      ["array", [1, "a", null]],
      ["object", { nested: { deeper: [1] } }],
      ["null", null],
    ];
    const pool = candidates.filter(([t]) => !types.has(t) && !(t === "integer" && types.has("number")) && !(t === "number" && types.has("integer")));
    return (pool.length ? this.rng.pick(pool) : this.rng.pick(candidates))[1];
  }

  /** A number just outside the schema's range, or far outside any. */
  outOfRange(schema: Schema): unknown {
    const s = this.branches(schema).find((b) => b.type === "integer" || b.type === "number") ?? {};
    const options: unknown[] = [-1e20, 1e20, 2 ** 63, -(2 ** 63), 0.5, -0.0001];
    if (s.maximum !== undefined) options.push(s.maximum + 1);
    if (s.minimum !== undefined) options.push(s.minimum - 1);
    if (s.exclusiveMinimum !== undefined) options.push(s.exclusiveMinimum);
    if (s.maxLength !== undefined) options.push("y".repeat(s.maxLength + 1));
    return this.rng.pick(options);
  }
}

/** Every leaf path of a JSON value (arrays and objects walked), for picking where to mutate. */
export function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value && typeof value === "object") {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    const out: (string | number)[][] = prefix.length ? [prefix] : [];
    for (const [k, v] of entries) out.push(...paths(v, [...prefix, k]));
    return out;
  }
  return prefix.length ? [prefix] : [];
}

export function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (!path.length) return value;
  const copy: Schema = Array.isArray(root) ? [...(root as unknown[])] : { ...(root as object) };
  copy[path[0]] = setAt(copy[path[0]], path.slice(1), value);
  return copy;
}

export function deleteAt(root: unknown, path: (string | number)[]): unknown {
  if (path.length === 1) {
    const copy: Schema = Array.isArray(root) ? [...(root as unknown[])] : { ...(root as object) };
    if (Array.isArray(copy)) (copy as unknown[]).splice(path[0] as number, 1);
    else delete copy[path[0]];
    return copy;
  }
  const copy: Schema = Array.isArray(root) ? [...(root as unknown[])] : { ...(root as object) };
  copy[path[0]] = deleteAt(copy[path[0]], path.slice(1));
  return copy;
}

/** The schema of the value at `path` inside `schema` (through refs and unions), or {}. */
export function schemaAt(values: SchemaValues, schema: Schema, path: (string | number)[]): Schema {
  let s: Schema = schema;
  for (const key of path) {
    const branches = values.branches(s);
    const next = branches
      .map((b) =>
        typeof key === "number" ? b.items : (b.properties?.[key] ?? (typeof b.additionalProperties === "object" ? b.additionalProperties : undefined)),
      )
      .find(Boolean);
    if (!next) return {};
    s = next;
  }
  return values.resolve(s);
}
