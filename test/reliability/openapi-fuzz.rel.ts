// Fuzzing from the OpenAPI description (issue 6, item 1). Reads GET /api/public/openapi.json and,
// with a fixed seed, sends every operation valid requests built from its schemas and broken ones
// (wrong types, missing and extra fields, nulls, 100,000-character strings, out-of-range numbers,
// `1e309` in raw JSON, unicode, arrays for objects, unknown query values, malformed JSON, bodies
// over the size limit, other clubs' ids). Every answer must be: no 5xx; a 4xx is JSON with a
// `detail`; a 2xx is a documented status whose body matches its documented schema (ajv, JSON
// Schema 2020-12); and a refused request stored nothing (data-table fingerprint before and after).
// Strict status (issue 18): every status answered, 4xx included, is one the operation documents
// (FUZZ_STRICT_STATUS=0 turns that off). FUZZ_REQUESTS (default 10,000) and FUZZ_SEED change the run.
import { afterAll, beforeAll, expect, it } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { createApiKey } from "../../lib/auth/keys";
import { changeCounts, changedTables, installChangeCounter } from "./change-counter";
import { deleteAt, HUGE, ODD_STRINGS, type Pools, paths, Rng, type Schema, SchemaValues, schemaAt, setAt } from "./schema-values";
import { makeWorld, solvedProof, type World } from "./world";
import { clubs } from "../../db/schema";
import { type FakeStripe, fakeStripe } from "../stripe-fake";

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_000);
const STRICT_STATUS = process.env.FUZZ_STRICT_STATUS !== "0";
const BASE = "https://club.test/openapi";

type Param = { name: string; in: "path" | "query" | "header"; required?: boolean; schema: Schema };
type Operation = {
  method: string;
  path: string;
  params: Param[];
  body: Schema | null;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }> | null;
  auth: string;
};

let world: World;
/** Card payments on, against the local stand-in: joins, renewals and paid tickets open Checkout Sessions there. */
let stripe: FakeStripe;
let doc: { paths: Record<string, Schema>; components: { schemas: Record<string, Schema> } };
let ops: Operation[];

beforeAll(async () => {
  // The public form's challenge on, at 8 bits (256 hashes a form): the fuzzer solves it as a
  // browser would (the `challenge` and `nonce` pools below), so registrations still reach 2xx.
  stripe = await fakeStripe();
  world = await makeWorld({ PUBLIC_FORM_POW_BITS: "8", ...stripe.env });
  await world.env.db.tx((t) => t.update(clubs).set({ payment_methods_enabled: ["stripe", "bank_transfer"] }));
  const res = await world.env.call("GET", "/api/public/openapi.json", { key: null });
  doc = res.body;
  const mounted = new Map(world.env.app.routes.map((r) => [`${r.method} ${r.path}`, r.spec.auth ?? "key"]));
  ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      params: (op.parameters ?? []) as Param[],
      body: op.requestBody?.content?.["application/json"]?.schema ?? null,
      responses: op.responses ?? null,
      auth: mounted.get(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`) ?? "key",
    })),
  );
});
afterAll(async () => {
  await world.env.close();
  stripe.stop();
});

function compileResponses() {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: BASE, components: doc.components });
  const cache = new Map<string, ((v: unknown) => boolean) & { errors?: unknown }>();
  return (op: Operation, status: number) => {
    const key = `${op.method} ${op.path} ${status}`;
    if (!cache.has(key)) {
      const schema = op.responses?.[String(status)]?.content?.["application/json"]?.schema;
      const absolute = schema ? JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`)) : null;
      cache.set(key, absolute ? (ajv.compile(absolute) as never) : (null as never));
    }
    return cache.get(key) ?? null;
  };
}

/** Percent-encodes a path segment; a lone surrogate becomes the invalid UTF-8 bytes it would be. */
function encodePath(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

type Built = { kind: string; url: string; init: RequestInit };

it(`${TOTAL} fuzzed requests from the OpenAPI description: no 5xx, 4xx with detail, 2xx as documented, refusals store nothing`, async () => {
  const { env, ours, other, session } = world;
  const rng = new Rng(SEED);
  const spareKey = await createApiKey(env.db, { adminId: env.adminId, scopes: { members: "view" } });
  const pick = <T>(...xs: T[]) => rng.pick(xs);
  // Solved challenges, one for each public registration built: its body gets a fresh one, as a
  // browser's form would, so that valid registrations reach 2xx and broken ones fail for the
  // fault they carry (a challenge drawn from the schema alone is never solved).
  const proofs = await Promise.all(Array.from({ length: 1500 }, () => solvedProof(env)));
  const pools: Pools = {
    club_id: () => ours.clubId,
    member_id: () => ours.memberId,
    event_id: () => ours.eventId,
    tier_id: () => ours.tierId,
    ticket_id: () => ours.ticketId,
    key_id: () => spareKey.id,
    webhook_id: () => ours.webhookId,
    delivery_id: () => ours.deliveryId,
    url: () => pick("https://hooks.invalid/fuzz", "http://127.0.0.1/", "http://169.254.169.254/", "ftp://x.invalid/"),
    slug: () => ours.slug,
    serial: () => pick(ours.memberCode, ours.passSerial, ours.memberCode.toLowerCase()),
    qr_token: () => ours.qrToken,
    registration_id: () => ours.registrationId,
    promo_code_id: () => ours.promoCodeId,
    invoice_id: () => ours.invoiceId,
    mailing_id: () => ours.mailingId,
    member_code: () => ours.memberCode,
    member_ids: () => pick(ours.memberId, `${ours.memberId},${other.memberId}`),
    code: () => pick(ours.qrToken, ours.memberCode, `FUZZ${rng.int(1000, 9999)}`),
    email: () => pick("owner@test.org", `fuzz${rng.int(0, 1e9)}@example.org`),
    password: () => pick("owner-password", "wrong-password"),
  };
  const otherIds: Record<string, string> = {
    club_id: other.clubId,
    member_id: other.memberId,
    event_id: other.eventId,
    tier_id: other.tierId,
    ticket_id: other.ticketId,
    webhook_id: other.webhookId,
    delivery_id: other.deliveryId,
    slug: other.slug,
    serial: other.memberCode,
    qr_token: other.qrToken,
    registration_id: other.registrationId,
    promo_code_id: other.promoCodeId,
    invoice_id: other.invoiceId,
    mailing_id: other.mailingId,
  };
  const values = new SchemaValues(doc.components.schemas, rng, pools);
  const validate = compileResponses();
  installChangeCounter(env.db.raw);

  function pathValue(p: Param, broken: boolean): string {
    if (!broken) return String(pools[p.name] ? pools[p.name]() : values.valid(p.schema, p.name));
    return pick(
      otherIds[p.name] ?? rng.uuid(),
      rng.uuid(),
      "not-a-uuid",
      "00000000-0000-0000-0000-000000000000",
      rng.pick(ODD_STRINGS) || "x",
      "a".repeat(rng.pick([300, 5000])),
      `${rng.uuid()}.json`,
    );
  }

  function queryString(op: Operation, broken: boolean): string {
    const qs = new URLSearchParams();
    for (const p of op.params.filter((x) => x.in === "query")) {
      if (p.required || rng.chance(0.5)) qs.append(p.name, String(values.valid(p.schema, p.name)));
    }
    if (broken) {
      const query = op.params.filter((x) => x.in === "query");
      const p = query.length ? rng.pick(query) : null;
      const name = p?.name ?? "unknown";
      const bad = pick<unknown>(
        "zzz-unknown",
        "abc",
        "-1",
        "0",
        "1e309",
        "99999999999999999999",
        "1.5",
        "",
        "true,false",
        rng.pick(ODD_STRINGS),
        "q".repeat(rng.pick([1000, 20_000])),
        p ? values.outOfRange(p.schema) : 1,
      );
      qs.set(name, String(bad));
      if (rng.chance(0.2)) qs.append(name, "again");
      if (rng.chance(0.2)) qs.append(`extra_${rng.int(0, 9)}`, "1");
    }
    const text = qs.toString();
    return text ? `?${text}` : "";
  }

  function brokenBody(schema: Schema, valid: unknown): { kind: string; text: string; contentType?: string } {
    const leafs = paths(valid);
    const at = leafs.length ? rng.pick(leafs) : null;
    const s = values.resolve(schema);
    const mode = rng.pick([
      "wrong-type",
      "missing-required",
      "extra-field",
      "null-field",
      "null-body",
      "huge-string",
      "out-of-range",
      "1e309",
      "unicode",
      "array-for-object",
      "malformed-json",
      "form-encoded",
      "text-plain",
      "empty",
    ]);
    switch (mode) {
      case "wrong-type":
        return { kind: mode, text: JSON.stringify(at ? setAt(valid, at, values.wrongType(schemaAt(values, schema, at))) : values.wrongType(schema)) };
      case "missing-required": {
        const req: string[] = s.required ?? [];
        return { kind: mode, text: JSON.stringify(req.length ? deleteAt(valid, [rng.pick(req)]) : {}) };
      }
      case "extra-field":
        return {
          kind: mode,
          text: JSON.stringify({
            ...(valid as object),
            [`extra_${rng.int(0, 99)}`]: pick<unknown>(1, "x", null, { id: rng.uuid() }),
            id: rng.uuid(),
            club_id: other.clubId,
          }),
        };
      case "null-field":
        return { kind: mode, text: JSON.stringify(at ? setAt(valid, at, null) : null) };
      case "null-body":
        return { kind: mode, text: "null" };
      case "huge-string":
        return { kind: mode, text: JSON.stringify(at ? setAt(valid, at, HUGE) : HUGE) };
      case "out-of-range":
        return { kind: mode, text: JSON.stringify(at ? setAt(valid, at, values.outOfRange(schemaAt(values, schema, at))) : 1e20) };
      case "1e309":
        return { kind: mode, text: JSON.stringify(at ? setAt(valid, at, "__INF__") : "__INF__").replace('"__INF__"', pick("1e309", "-1e309", "1e-400")) };
      case "unicode":
        return { kind: mode, text: JSON.stringify(at ? setAt(valid, at, rng.pick(ODD_STRINGS)) : rng.pick(ODD_STRINGS)) };
      case "array-for-object":
        return { kind: mode, text: JSON.stringify(at && at.length > 1 ? setAt(valid, at.slice(0, -1), [valid]) : [valid]) };
      case "malformed-json": {
        const text = JSON.stringify(valid);
        return { kind: mode, text: pick(text.slice(0, Math.max(1, text.length - 1)), `${text},`, "{'a': 1}", "{", '{"a":}', `${text}${text}`, "\u0000") };
      }
      case "form-encoded":
        return {
          kind: mode,
          text: new URLSearchParams(Object.entries((valid as object) ?? {}).map(([k, v]) => [k, String(v)])).toString(),
          contentType: "application/x-www-form-urlencoded",
        };
      case "text-plain":
        return { kind: mode, text: JSON.stringify(valid), contentType: "text/plain" };
      default:
        return { kind: mode, text: "" };
    }
  }

  function build(op: Operation): Built {
    const headers: Record<string, string> = {};
    if (op.auth === "session") headers.authorization = `Bearer ${session}`;
    else if (op.auth !== "public") headers.authorization = `Bearer ${ours.key}`;
    const targets = ["valid", "valid", "valid", "query", "path"];
    if (op.body) targets.push("body", "body", "body", "body", "oversize");
    const target = rng.pick(targets);
    const pathParams = op.params.filter((p) => p.in === "path");
    const brokenParam = target === "path" && pathParams.length ? rng.pick(pathParams) : null;
    // An erasure takes a member of its own: the shared one must stay for every other request.
    const erases = op.method === "DELETE" && op.path.endsWith("/members/{member_id}");
    // A public registration goes to an event of its own, which no admin call cancels or closes.
    const registers = op.method === "POST" && op.path === "/api/public/events/{event_id}/registrations";
    let url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const p = pathParams.find((x) => x.name === name) as Param;
      if (erases && name === "member_id" && p !== brokenParam) return ours.spareMemberId();
      if (registers && name === "event_id" && p !== brokenParam) return ours.openEventId;
      if (op.method === "DELETE" && name === "webhook_id" && p !== brokenParam) return ours.spareWebhookId();
      return encodePath(pathValue(p, p === brokenParam));
    });
    url += queryString(op, target === "query");
    let kind = target === "path" && !brokenParam ? "valid" : target;
    let body: BodyInit | undefined;
    if (op.body) {
      const valid = values.valid(op.body);
      if (registers && valid && typeof valid === "object") {
        Object.assign(valid, { ticket_id: ours.openTicketId }, proofs.pop());
        delete (valid as { website?: string }).website;
      }
      // A join form as a browser sends it: solved, honeypot empty, no answers the club does not ask for.
      if (op.method === "POST" && op.path === "/api/public/clubs/{slug}/join" && valid && typeof valid === "object") {
        Object.assign(valid, proofs.pop());
        for (const name of ["website", "custom_fields", "referral_code", "promo_code"]) delete (valid as Record<string, unknown>)[name];
      }
      headers["content-type"] = "application/json";
      if (target === "body") {
        const broken = brokenBody(op.body, valid);
        kind = `body:${broken.kind}`;
        body = broken.text;
        if (broken.contentType) headers["content-type"] = broken.contentType;
      } else if (target === "oversize") {
        // Over the 1 MB limit, announced by Content-Length or streamed without one.
        const big = JSON.stringify({ ...(valid as object), padding: "p".repeat(1024 * 1024 + 10) });
        if (rng.chance(0.5)) body = big;
        else {
          kind = "oversize-stream";
          body = new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode(big));
              c.close();
            },
          });
        }
      } else body = JSON.stringify(valid);
    } else if (op.method !== "GET" && rng.chance(0.3)) {
      body = pick("{}", "[]", "{", "null");
      headers["content-type"] = "application/json";
      kind = kind === "valid" ? "valid+stray-body" : kind;
    }
    return { kind, url, init: { method: op.method, headers, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit };
  }

  const counts: Record<string, number> = { "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 };
  const byStatus: Record<number, number> = {};
  const byOp: Record<string, Record<number, number>> = {};
  const problems: string[] = [];
  const note = (msg: string) => {
    if (problems.length < 60) problems.push(msg);
  };
  let fingerprint = changeCounts(env.db.raw);

  for (let i = 0; i < TOTAL; i++) {
    const op = ops[i % ops.length];
    const req = build(op);
    const ip = `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
    const res = await env.app.handle(new Request(`http://localhost${req.url}`, req.init), ip);
    const text = await res.text();
    const label = `${op.method} ${op.path} [${req.kind}] ${req.url.slice(0, 160)} -> ${res.status}`;
    counts[`${Math.floor(res.status / 100)}xx`] = (counts[`${Math.floor(res.status / 100)}xx`] ?? 0) + 1;
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    byOp[`${op.method} ${op.path}`] ??= {};
    const perOp = byOp[`${op.method} ${op.path}`];
    perOp[res.status] = (perOp[res.status] ?? 0) + 1;
    if (process.env.FUZZ_VERBOSE && req.kind === "valid" && res.status === 422) console.log(label, text.slice(0, 300));
    let json: Schema | undefined;
    try {
      json = JSON.parse(text);
    } catch {}
    const after = changeCounts(env.db.raw);
    if (STRICT_STATUS && res.status >= 400 && !op.responses?.[String(res.status)]) note(`${label}: status not documented`);
    if (res.status >= 500) note(`${label}: ${text.slice(0, 200)}`);
    else if (res.status >= 400) {
      if (json === undefined || (typeof json.detail !== "string" && !Array.isArray(json.detail))) note(`${label}: no JSON detail: ${text.slice(0, 120)}`);
      // ALREADY_MEMBER is a refusal that does something, by design (DESIGN.md section 13): the
      // member is mailed their page's link (a job; a token made if they had none), and the form's
      // challenge is spent with it.
      const sideEffects = json?.code === "ALREADY_MEMBER" ? ["form_challenges_used", "jobs", "members", "member_versions"] : [];
      const changed = changedTables(fingerprint, after).filter((table) => !sideEffects.includes(table));
      if (changed.length) note(`${label}: refused but stored in ${changed.join(", ")}`);
    } else if (res.status >= 200 && res.status < 300 && op.responses) {
      // A file route answers JSON for one format and text for others: only a JSON answer meets the JSON schema.
      const validator = (res.headers.get("content-type") ?? "application/json").startsWith("application/json") ? validate(op, res.status) : null;
      if (!op.responses[String(res.status)]) note(`${label}: status not documented`);
      else if (validator && !validator(json)) note(`${label}: body off schema: ${JSON.stringify(validator.errors).slice(0, 300)}`);
    }
    fingerprint = after;
  }

  console.log(
    `fuzz: seed ${SEED}, ${TOTAL} requests over ${ops.length} operations: 2xx ${counts["2xx"]}, 3xx ${counts["3xx"]}, 4xx ${counts["4xx"]}, 5xx ${counts["5xx"]}; by status ${JSON.stringify(byStatus)}`,
  );
  if (process.env.FUZZ_VERBOSE) console.log(JSON.stringify(changeCounts(env.db.raw)));
  if (process.env.FUZZ_VERBOSE) for (const [name, statuses] of Object.entries(byOp)) console.log(`  ${name}: ${JSON.stringify(statuses)}`);
  expect(problems).toEqual([]);
  expect(counts["5xx"]).toBe(0);
}, 600_000);
