// The authorization matrix (issue 6, item 2), generated from the mounted route table and the MCP
// tool list, so a new route or tool is in it without anyone adding it. Each route is called by
// every kind of caller: no key, malformed keys, a revoked key, an expired key, a removed admin's
// key, an admin whose access ended, each scope area alone at view and at edit, a key without
// scopes, a read-only admin's keys, a dashboard session, another club's key on our club, and our
// key with the other club's ids in the path, the body and the query. The expected answer comes
// from DESIGN.md section 4 (its route table below; the route's declared scope where the table is
// silent). No answer may carry the data of a club other than the caller's. OAuth access tokens
// (DESIGN.md section 17) are callers too: on /mcp they act as a key with their grant's scopes;
// everywhere else they are no credential (their audience is BASE_URL/mcp).
import { afterAll, beforeAll, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { type ZodType, z } from "zod";
import { createHash } from "node:crypto";
import { admins, oauthTokens } from "../../db/schema";
import type { Caller } from "../../lib/access";
import { resolveCaller } from "../../lib/auth/caller";
import { createApiKey, revokeApiKey } from "../../lib/auth/keys";
import { sha256Hex } from "../../lib/ids";
import { registerClient } from "../../lib/oauth/clients";
import { exchangeCode, issueCode, revokeGrant } from "../../lib/oauth/grants";
import { AREAS, hasScope, LEVELS, type Scope, type Scopes, scopeList } from "../../lib/access";
import { siteOf } from "../../lib/context";
import { AppError } from "../../lib/errors";
import { TOOLS } from "../../lib/mcp";
import type { MountedRoute } from "../../server/loader";
import { mcpClient } from "../mcp/client";
import { Rng, type Schema, SchemaValues } from "./schema-values";
import { type ClubObjects, makeWorld, type World } from "./world";

/** DESIGN.md section 4's route table: `null` = any valid key. Routes it does not name use their declared scope. */
const DESIGN_SCOPES: [RegExp, Scope | Scope[] | null][] = [
  [/^GET \/api\/auth\/me$/, null],
  [/^PUT \/api\/clubs\/:club_id$/, "page:edit"],
  // The logo is the club's branding: the scope of PUT /api/clubs/<id> for it (issue 32).
  [/^(PUT|DELETE) \/api\/clubs\/:club_id\/logo$/, "page:edit"],
  [/^GET \/api\/clubs\/:club_id\/stats$/, "finances:view"],
  // DESIGN.md section 21.
  [/^GET \/api\/clubs\/:club_id\/(payments|journal)$/, "finances:view"],
  [/^GET \/api\/clubs\/:club_id\/attendance$/, "access_control:view"],
  [/^GET \/api\/verify\/:serial$/, "access_control:view"],
  [/^GET \/api\/clubs\/:club_id\/audit-log$/, "access_control:view"],
  [/^POST \/api\/clubs\/:club_id\/events\/:event_id\/checkin$/, "access_control:edit"],
  [/^GET \/api\/clubs\/:club_id\/members(\/export)?$/, "members:view"],
  [/^GET \/api\/clubs\/:club_id\/members\/:member_id(\/history|\/data-export)?$/, "members:view"],
  [/^(PATCH|DELETE) \/api\/clubs\/:club_id\/members\/:member_id$/, "members:edit"],
  [/^POST \/api\/clubs\/:club_id\/members\/(manual|:member_id\/actions\/(extend|suspend|reactivate))$/, "members:edit"],
  [/^POST \/api\/clubs\/:club_id\/members\/:member_id\/actions\/(mark-paid|cancel-subscription)$/, "finances:edit"],
  [/^POST \/api\/clubs\/:club_id\/members\/:member_id\/send-card-email$/, "communication:edit"],
  [/^GET \/api\/clubs\/:club_id\/tiers$/, "members:view"],
  [/^(POST|PUT) \/api\/clubs\/:club_id\/tiers(\/:tier_id)?$/, "members:edit"],
  [/^GET \/api\/clubs\/:club_id\/promo-codes$/, "finances:view"],
  [/^POST \/api\/clubs\/:club_id\/promo-codes$/, "finances:edit"],
  [/^GET \/api\/clubs\/:club_id\/events(\/:event_id(\/registrations)?)?$/, "events:view"],
  [/^(POST|PATCH) \/api\/clubs\/:club_id\/events(\/:event_id)?$/, "events:edit"],
  // DESIGN.md section 12.
  [/^DELETE \/api\/clubs\/:club_id\/events\/:event_id$/, "events:edit"],
  [/^POST \/api\/clubs\/:club_id\/events\/:event_id\/registrations$/, "events:edit"],
  [/^POST \/api\/clubs\/:club_id\/events\/:event_id\/registrations\/:registration_id\/actions\/confirm$/, ["events:edit", "finances:edit"]],
  [/^POST \/api\/clubs\/:club_id\/events\/:event_id\/registrations\/:registration_id\/actions\/cancel$/, "events:edit"],
  [/^PATCH \/api\/clubs\/:club_id\/promo-codes\/:promo_code_id$/, "finances:edit"],
  // DESIGN.md section 15.
  [/^GET \/api\/clubs\/:club_id\/webhooks(\/:webhook_id\/deliveries)?$/, "access_control:view"],
  [/^(POST|PATCH|DELETE) \/api\/clubs\/:club_id\/webhooks(\/:webhook_id(\/test|\/rotate-secret|\/deliveries\/:delivery_id\/retry)?)?$/, "access_control:edit"],

  // DESIGN.md section 13.
  [/^POST \/api\/clubs\/:club_id\/members\/:member_id\/actions\/(approve|reject)$/, "members:edit"],
  // DESIGN.md section 20.
  [/^GET \/api\/clubs\/:club_id\/(invoices(\/:invoice_id(\/pdf)?)?|members\/:member_id\/invoices)$/, "finances:view"],
  [/^POST \/api\/clubs\/:club_id\/invoices(\/:invoice_id\/actions\/cancel|\/run)?$/, "finances:edit"],
  [/^POST \/api\/clubs\/:club_id\/invoices\/:invoice_id\/actions\/send$/, ["finances:edit", "communication:edit"]],
  // DESIGN.md section 22.
  [/^GET \/api\/clubs\/:club_id\/mailings(\/:mailing_id(\/preview|\/recipients)?)?$/, "communication:view"],
  [/^(POST|PATCH) \/api\/clubs\/:club_id\/mailings(\/:mailing_id(\/actions\/(test|send|cancel))?)?$/, "communication:edit"],
];

/** The MCP tools SPEC names, with the scope of the route each mirrors (DESIGN.md section 4). */
const DESIGN_TOOL_SCOPES: Record<string, Scope | Scope[] | null> = {
  whoami: null,
  list_members: "members:view",
  add_member: "members:edit",
  extend_membership: "members:edit",
  mark_member_paid: "finances:edit",
  list_tiers: "members:view",
  list_events: "events:view",
  create_event: "events:edit",
  event_registrations: "events:view",
  checkin_event: "access_control:edit",
  verify_card: "access_control:view",
  club_stats: "finances:view",
  get_member: "members:view",
  update_member: "members:edit",
  delete_member: "members:edit",
  member_history: "members:view",

  // DESIGN.md section 12.
  add_registration: "events:edit",
  confirm_registration: ["events:edit", "finances:edit"],
  cancel_registration: "events:edit",
  update_event: "events:edit",
  update_promo_code: "finances:edit",
  list_webhooks: "access_control:view",
  webhook_deliveries: "access_control:view",

  // DESIGN.md section 13.
  approve_member: "members:edit",
  reject_member: "members:edit",

  // DESIGN.md section 21.
  list_payments: "finances:view",
  export_journal: "finances:view",

  // DESIGN.md section 22.
  create_mailing: "communication:edit",
  preview_mailing: "communication:view",
  send_mailing: "communication:edit",
};

/**
 * Per-route overrides where a generated body would test something else than the route's scope:
 * PUT club needs more scopes for card and fee fields (DESIGN.md section 4), tested in extra cells.
 */
const BODY_OVERRIDES: Record<string, { body: unknown; extra?: { body: unknown; also: Scope }[] }> = {
  // A refund needs finances:edit besides the route's events:edit (DESIGN.md section 12).
  "POST /api/clubs/:club_id/events/:event_id/registrations/:registration_id/actions/cancel": {
    body: { reason: "matrix" },
    extra: [{ body: { refund_cents: 1 }, also: "finances:edit" }],
  },
  "PUT /api/clubs/:club_id": {
    body: { name: "Club de test" },
    extra: [
      { body: { card_theme: "dark" }, also: "card:edit" },
      { body: { membership_fee_cents: 4200 }, also: "finances:edit" },
    ],
  },
};

/** How a caller should be answered: refused with this status, or let through (anything but 401/403/5xx). */
type Expect = { status: number } | { pass: true } | { notFound: true } | { same: true };

type CallerKind = {
  name: string;
  header: string | null;
  /** The club the caller acts for (null: none). */
  club: "ours" | "other" | null;
  /** null: not a valid key (401 expected); "session": a dashboard session; else effective scopes. */
  scopes: Scopes | "session" | null;
  /** Whose objects' ids fill the path, body and query (the path's club_id is always ours); default ours. */
  ids?: "ours" | "other";
  /** An OAuth access token: a credential on /mcp only (401 elsewhere). */
  mcpOnly?: true;
};

/** An OAuth grant of `scopes` made by the admin behind `key` (as the consent page and the token endpoint make it): its tokens and id. */
async function oauthTokens_(db: World["env"]["db"], key: string, scopes: Scopes) {
  const actor = await resolveCaller(db, `Bearer ${key}`);
  const client = await registerClient(db, { client_name: "Matrix assistant", redirect_uris: ["http://127.0.0.1/cb"] });
  const verifier = "m".repeat(43);
  const code = await issueCode(db, actor, {
    client: { client_id: client.client_id, kind: "registered", client_name: client.client_name, client_uri: null, redirect_uris: client.redirect_uris },
    redirectUri: "http://127.0.0.1/cb",
    redirectUriGiven: false,
    scopes,
    resource: "http://localhost/mcp",
    codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
  });
  const tokens = await exchangeCode(db, { code, clientId: client.client_id, codeVerifier: verifier, redirectUri: undefined, resource: undefined });
  return { access: tokens.access_token, refresh: tokens.refresh_token };
}

let world: World;
let callers: CallerKind[];

const past = () => new Date(Date.now() - 60_000).toISOString();

beforeAll(async () => {
  world = await makeWorld();
  const { env, ours, other, session } = world;
  const key = (scopes: Scopes, opts: { adminId?: string; expiresAt?: string } = {}) => env.makeKey(scopes, opts);
  const allEdit = env.allEdit;
  const revoked = await createApiKey(env.db, { adminId: env.adminId, scopes: allEdit });
  await revokeApiKey(env.db, revoked.id);
  const removed = await env.makeAdmin();
  const removedKey = await key(allEdit, { adminId: removed.id });
  await env.db.tx((t) => t.update(admins).set({ removed_at: past() }).where(eq(admins.id, removed.id)));
  const ended = await env.makeAdmin({ accessExpiresAt: past() });
  const endedKey = await key(allEdit, { adminId: ended.id });
  // A key made with edit scopes before its admin became read-only: capped to view (DESIGN.md section 4).
  const turned = await env.makeAdmin();
  const turnedKey = await key(allEdit, { adminId: turned.id });
  const turnedToken = await oauthTokens_(env.db, turnedKey, allEdit);
  await env.db.tx((t) => t.update(admins).set({ read_only: true }).where(eq(admins.id, turned.id)));
  const readOnly = await env.makeAdmin({ readOnly: true });
  const readOnlyKey = await key(Object.fromEntries(AREAS.map((a) => [a, "view"])), { adminId: readOnly.id });
  const allView = Object.fromEntries(AREAS.map((a) => [a, "view"])) as Scopes;
  const token = (scopes: Scopes) => oauthTokens_(env.db, ours.key, scopes);
  const revokedToken = await token(allEdit);
  await revokeGrant(env.db, (await resolveCaller(env.db, `Bearer ${revokedToken.access}`, new Date(), "http://localhost/mcp")).keyId as string);
  const expiredToken = await token(allEdit);
  await env.db.tx((t) =>
    t
      .update(oauthTokens)
      .set({ expires_at: past() })
      .where(eq(oauthTokens.token_hash, sha256Hex(expiredToken.access))),
  );
  const endsLater = await env.makeAdmin();
  const endedToken = await oauthTokens_(env.db, await key(allEdit, { adminId: endsLater.id }), allEdit);
  await env.db.tx((t) => t.update(admins).set({ access_expires_at: past() }).where(eq(admins.id, endsLater.id)));

  callers = [
    { name: "no key", header: null, club: null, scopes: null },
    { name: "malformed: no bearer word", header: ours.key, club: null, scopes: null },
    { name: "malformed: Basic", header: `Basic ${btoa("owner@test.org:owner-password")}`, club: null, scopes: null },
    { name: "malformed: truncated key", header: `Bearer ${ours.key.slice(0, 20)}`, club: null, scopes: null },
    { name: "malformed: unknown key", header: `Bearer mk_live_${"0".repeat(40)}`, club: null, scopes: null },
    { name: "malformed: two tokens", header: `Bearer ${ours.key} ${ours.key}`, club: null, scopes: null },
    { name: "revoked key", header: `Bearer ${revoked.api_key}`, club: null, scopes: null },
    { name: "expired key", header: `Bearer ${await key(allEdit, { expiresAt: past() })}`, club: null, scopes: null },
    { name: "removed admin's key", header: `Bearer ${removedKey}`, club: null, scopes: null },
    { name: "admin whose access ended", header: `Bearer ${endedKey}`, club: null, scopes: null },
    { name: "key without scopes", header: `Bearer ${await key({})}`, club: "ours", scopes: {} },
    ...(await Promise.all(
      AREAS.flatMap((area) =>
        LEVELS.map(async (level) => ({
          name: `${area}:${level} only`,
          header: `Bearer ${await key({ [area]: level })}`,
          club: "ours" as const,
          scopes: { [area]: level } as Scopes,
        })),
      ),
    )),
    { name: "all edit", header: `Bearer ${ours.key}`, club: "ours", scopes: allEdit },
    { name: "read-only admin (key made with edit)", header: `Bearer ${turnedKey}`, club: "ours", scopes: allView },
    { name: "read-only admin (view key)", header: `Bearer ${readOnlyKey}`, club: "ours", scopes: allView },
    { name: "dashboard session", header: `Bearer ${session}`, club: "ours", scopes: "session" },
    { name: "other club's key on our club", header: `Bearer ${other.key}`, club: "other", scopes: allEdit },
    { name: "our key, other club's ids", header: `Bearer ${ours.key}`, club: "ours", scopes: allEdit, ids: "other" },
    { name: "other club's key, its own ids, our club_id", header: `Bearer ${other.key}`, club: "other", scopes: allEdit, ids: "other" },
    // OAuth access tokens (DESIGN.md section 17).
    ...(await Promise.all(
      (["members", "events", "finances", "access_control"] as const).flatMap((area) =>
        LEVELS.map(async (level) => ({
          name: `oauth token ${area}:${level}`,
          header: `Bearer ${(await token({ [area]: level })).access}`,
          club: "ours" as const,
          scopes: { [area]: level } as Scopes,
          mcpOnly: true as const,
        })),
      ),
    )),
    { name: "oauth token, all edit", header: `Bearer ${(await token(allEdit)).access}`, club: "ours", scopes: allEdit, mcpOnly: true },
    { name: "oauth token, read-only admin (granted edit)", header: `Bearer ${turnedToken.access}`, club: "ours", scopes: allView, mcpOnly: true },
    { name: "oauth token, revoked grant", header: `Bearer ${revokedToken.access}`, club: null, scopes: null },
    { name: "oauth token, expired", header: `Bearer ${expiredToken.access}`, club: null, scopes: null },
    { name: "oauth token, admin whose access ended", header: `Bearer ${endedToken.access}`, club: null, scopes: null },
    { name: "oauth refresh token as bearer", header: `Bearer ${(await token(allEdit)).refresh}`, club: null, scopes: null },
    { name: "oauth token, unknown", header: `Bearer mca_${"0".repeat(43)}`, club: null, scopes: null },
    {
      name: "other club's oauth token on our club",
      header: `Bearer ${(await oauthTokens_(env.db, other.key, allEdit)).access}`,
      club: "other",
      scopes: allEdit,
      mcpOnly: true,
    },
  ];
});
afterAll(() => world.env.close());

/** Strings only a club's own data holds: none may appear in an answer to another club's caller. */
function markers(c: ClubObjects, tag: string): string[] {
  return [
    c.clubId,
    c.memberId,
    c.eventId,
    c.tierId,
    c.ticketId,
    c.memberCode,
    c.passSerial,
    c.qrToken,
    c.promoCode,
    c.invoiceId,
    c.mailingId,
    `Lovelace ${tag}`,
    `ada-${tag}@`,
    `Soirée ${tag}`,
  ];
}

/** The scopes a route needs (all of them): DESIGN.md's, else the route's declared ones. */
function designScope(route: MountedRoute): { scopes: Scope[]; from: "DESIGN" | "declared" } {
  const name = `${route.method} ${route.path}`;
  const rule = DESIGN_SCOPES.find(([re]) => re.test(name));
  return rule ? { scopes: scopeList(rule[1] ?? undefined), from: "DESIGN" } : { scopes: scopeList(route.spec.scope), from: "declared" };
}

const sameScopes = (a: Scope[], b: Scope[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

function allowed(scopes: Scopes, needed: Scope[]): boolean {
  return needed.every((s) => hasScope(scopes, s));
}

function expectation(route: MountedRoute, caller: CallerKind, needed: Scope[]): Expect {
  const auth = route.spec.auth ?? "key";
  if (auth === "public") return { same: true };
  if (caller.scopes === null || (caller.mcpOnly && route.path !== "/mcp")) return { status: 401 };
  if (auth === "superadmin") return { status: 403 };
  if (caller.scopes === "session") return { pass: true };
  if (auth === "session") return { status: 403 };
  const hasClub = route.path.includes(":club_id");
  if (caller.club === "other" && hasClub) return { status: 403 };
  if (!allowed(caller.scopes, needed)) return { status: 403 };
  const objectIds = [...route.path.matchAll(/:(\w+_id)/g)].map((m) => m[1]).filter((n) => n !== "club_id");
  if (caller.club === "ours" && caller.ids === "other" && objectIds.length) return { notFound: true };
  return { pass: true };
}

function jsonSchemaOf(schema: ZodType | undefined) {
  if (!schema) return null;
  const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Schema;
  return { root: json, defs: (json.$defs ?? {}) as Schema };
}

/** Path, query and body of a request on `club`'s objects (club_id stays ours for foreign ids). */
function requestFor(route: MountedRoute, objects: ClubObjects, clubId: string, rng: Rng, override?: unknown) {
  const pools = {
    club_id: () => clubId,
    // An erasure takes a member of its own: the shared one must stay for the other routes.
    member_id: () => (route.method === "DELETE" && route.path.endsWith("/members/:member_id") ? objects.spareMemberId() : objects.memberId),
    event_id: () => objects.eventId,
    tier_id: () => objects.tierId,
    ticket_id: () => objects.ticketId,
    member_ids: () => objects.memberId,
    webhook_id: () => (route.method === "DELETE" && route.path.endsWith("/webhooks/:webhook_id") ? objects.spareWebhookId() : objects.webhookId),
    delivery_id: () => objects.deliveryId,
    url: () => "https://hooks.invalid/matrix",
    serial: () => objects.memberCode,
    qr_token: () => objects.qrToken,
    registration_id: () => objects.registrationId,
    promo_code_id: () => objects.promoCodeId,
    invoice_id: () => objects.invoiceId,
    mailing_id: () => objects.mailingId,
    slug: () => objects.slug,
    member_code: () => objects.memberCode,
    // A scanned code for check-in; anywhere else (a promo code) a fresh one, so that no token is stored under another name.
    code: () => (route.path.endsWith("/checkin") ? objects.qrToken : `CODE${rng.int(1000, 9999)}`),
    key_id: () => "00000000-0000-4000-8000-000000000000",
  } as Record<string, () => unknown>;
  const path = route.path.replace(/:(\w+)/g, (_, n: string) => encodeURIComponent(String(pools[n]?.() ?? "x")));
  const query = new URLSearchParams();
  const q = jsonSchemaOf(route.spec.query);
  for (const name of Object.keys(q?.root.properties ?? {})) if (pools[name]) query.set(name, String(pools[name]()));
  let body: unknown;
  const b = jsonSchemaOf(route.spec.body);
  if (override !== undefined) body = override;
  else if (b) {
    const values = new SchemaValues(b.defs, rng, pools, 0);
    for (let i = 0; i <= 50; i++) {
      body = values.valid(b.root);
      if (route.spec.body?.safeParse(body).success) break;
    }
  } else if (route.method !== "GET") body = {};
  return { url: `${path}${query.size ? `?${query}` : ""}`, body };
}

it("every mounted route answers each kind of caller as DESIGN.md section 4 says, and never with another club's data", async () => {
  const { env, ours, other } = world;
  const rng = new Rng(4242);
  const failures: string[] = [];
  const covered = new Set<string>();
  let cells = 0;
  const send = async (method: string, url: string, header: string | null, body: unknown) => {
    const headers: Record<string, string> = { accept: "application/json, text/event-stream" };
    if (header) headers.authorization = header;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await env.app.handle(
      new Request(`http://localhost${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
      `10.1.${Math.floor(cells / 250) % 250}.${(cells % 250) + 1}`,
    );
    return { status: res.status, text: await res.text() };
  };

  for (const route of env.app.routes) {
    const method = route.method === "ALL" ? "POST" : route.method;
    const name = `${route.method} ${route.path}`;
    const design = designScope(route);
    if (design.from === "DESIGN" && !sameScopes(scopeList(route.spec.scope), design.scopes))
      failures.push(`${name}: declares ${scopeList(route.spec.scope)} but DESIGN says ${design.scopes}`);
    const override = BODY_OVERRIDES[name];
    const variants = [
      { body: override?.body, needed: design.scopes },
      ...(override?.extra ?? []).map((x) => ({ body: x.body, needed: [...design.scopes, x.also] })),
    ];
    const mcpBody = route.path === "/mcp" ? { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } : undefined;
    for (const variant of variants) {
      let publicStatus: number | null = null;
      for (const caller of callers) {
        const objects = caller.ids === "other" ? other : ours;
        const req = requestFor(route, objects, ours.clubId, rng, mcpBody ?? variant.body);
        const res = await send(method, req.url, caller.header, req.body);
        cells++;
        covered.add(name);
        const want = expectation(route, caller, variant.needed);
        const label = `${name} ${JSON.stringify(variant.body ?? "")} as ${caller.name} -> ${res.status}`;
        if (res.status >= 500) failures.push(`${label}: ${res.text.slice(0, 200)}`);
        else if ("status" in want && res.status !== want.status) failures.push(`${label}, expected ${want.status}: ${res.text.slice(0, 160)}`);
        else if ("pass" in want && (res.status === 401 || res.status === 403)) failures.push(`${label}, expected to get through: ${res.text.slice(0, 160)}`);
        else if ("notFound" in want && res.status !== 404) failures.push(`${label}, expected 404: ${res.text.slice(0, 160)}`);
        else if ("same" in want) {
          publicStatus ??= res.status;
          if (res.status !== publicStatus) failures.push(`${label}: a public route answered ${publicStatus} to another caller`);
        }
        // Public routes show any club's public data by design; elsewhere only what the request itself carried may come back.
        const foreign =
          route.spec.auth === "public" ? [] : caller.club === "ours" ? markers(other, "other") : caller.club === "other" ? markers(ours, "ours") : [];
        // What the request itself carried may come back (an id echoed in a 404), nothing else of the other club.
        const sent = `${req.url} ${JSON.stringify(req.body ?? "")}`;
        const leaked = foreign.filter((m) => res.text.includes(m) && !sent.includes(m));
        if (leaked.length) failures.push(`${label}: carries another club's data (${leaked.join(", ")})`);
      }
    }
  }

  // MCP: each valid caller lists the same tools as lib/mcp TOOLS and calls each one.
  const toolCells = await mcpMatrix();
  cells += toolCells.cells;
  failures.push(...toolCells.failures);

  const mounted = new Set(env.app.routes.map((r) => `${r.method} ${r.path}`));
  console.log(`authorization matrix: ${cells} cells (${mounted.size} routes, ${TOOLS.length} MCP tools, ${callers.length} kinds of caller)`);
  expect([...mounted].filter((r) => !covered.has(r))).toEqual([]);
  expect(failures).toEqual([]);
}, 300_000);

/** The scopes a tool's verb checks, found by running it for a caller without them, granting each one it asks for in turn. */
async function toolScope(def: (typeof TOOLS)[number]): Promise<Scope[]> {
  const { env } = world;
  const actor: Caller = {
    kind: "key",
    adminId: env.adminId,
    clubId: env.clubId,
    locale: "en",
    scopes: {} as Scopes,
    readOnly: false,
    isSuperadmin: false,
    keyId: null,
    keyPrefix: null,
  };
  const found: Scope[] = [];
  for (;;) {
    try {
      await def.run({ db: env.db, actor, clubId: env.clubId, locale: "en", ...siteOf(env.config) }, {} as never);
      return found;
    } catch (err) {
      if (!(err instanceof AppError && err.code === "SCOPE_MISSING") || found.length > 3) return found;
      const scope = String(err.params.scope) as Scope;
      found.push(scope);
      const [area, level] = scope.split(":") as [keyof Scopes, "view" | "edit"];
      actor.scopes = { ...actor.scopes, [area]: level };
    }
  }
}

async function mcpMatrix() {
  const { env, ours, other } = world;
  const failures: string[] = [];
  let cells = 0;
  const rng = new Rng(777);
  const scopes = new Map<string, Scope[]>();
  for (const def of TOOLS) {
    const declared = await toolScope(def);
    const design = DESIGN_TOOL_SCOPES[def.name];
    if (design !== undefined && !sameScopes(scopeList(design ?? undefined), declared))
      failures.push(`tool ${def.name}: checks ${declared} but DESIGN says ${design}`);
    // What tools/list filters on (the tool's `scope`, its verb's) is what its run checks.
    if (!sameScopes(scopeList(def.scope ?? undefined), declared)) failures.push(`tool ${def.name}: checks ${declared} but declares ${def.scope}`);
    scopes.set(def.name, declared);
  }
  const argsFor = (def: (typeof TOOLS)[number], objects: ClubObjects) => {
    const json = z.toJSONSchema(def.input, { unrepresentable: "any", io: "input" }) as Schema;
    const pools: Record<string, () => unknown> = {
      member_id: () => (def.name === "delete_member" ? objects.spareMemberId() : objects.memberId),
      event_id: () => objects.eventId,
      tier_id: () => objects.tierId,
      serial: () => objects.memberCode,
      code: () => (def.name === "checkin_event" ? objects.qrToken : `CODE${rng.int(1000, 9999)}`),
      member_ids: () => objects.memberId,
      ticket_id: () => objects.ticketId,
      registration_id: () => objects.registrationId,
      promo_code_id: () => objects.promoCodeId,
      invoice_id: () => objects.invoiceId,
      mailing_id: () => objects.mailingId,
      webhook_id: () => objects.webhookId,
    };
    if (def.name === "update_club") return { name: "Club de test" };
    // A refund needs finances:edit too: the matrix checks the tool's own scopes.
    const drop = def.name === "cancel_registration" ? ["refund_cents"] : [];
    // Valid input, so that a refusal can only come from the scope check: draw again until the schema accepts it.
    const values = new SchemaValues(json.$defs ?? {}, rng, pools, 0);
    for (let i = 0; ; i++) {
      const args = values.valid(json) as Record<string, unknown>;
      for (const name of drop) delete args[name];
      if (def.input.safeParse(args).success || i === 50) return args;
    }
  };
  for (const caller of callers) {
    if (caller.scopes === null || caller.scopes === "session" || caller.club === null) continue;
    const client = await mcpClient(env, (caller.header as string).slice("Bearer ".length));
    // tools/list shows the tools the caller's scopes allow, no others.
    const listed = (await client.listTools()).tools.map((t) => t.name).sort();
    const held = caller.scopes;
    const callable = TOOLS.filter((def) => allowed(held, scopes.get(def.name) ?? []));
    expect(listed).toEqual(callable.map((t) => t.name).sort());
    for (const def of TOOLS) {
      // Our key with the other club's ids, or the other club's key with ours: either way, ids of a foreign club.
      const foreignIds = (caller.ids ?? "ours") !== caller.club;
      const objects = caller.ids === "other" ? other : ours;
      const args = argsFor(def, objects);
      const res = (await client.callTool({ name: def.name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
      cells++;
      const text = res.content[0]?.text ?? "";
      let code: string | undefined;
      try {
        code = JSON.parse(text).code;
      } catch {}
      const needed = scopes.get(def.name);
      const label = `tool ${def.name} as ${caller.name} -> ${res.isError ? `error ${code ?? text.slice(0, 80)}` : "ok"}`;
      const mayRun = caller.scopes && allowed(caller.scopes, needed ?? []);
      if (!mayRun && code !== "SCOPE_MISSING") failures.push(`${label}, expected SCOPE_MISSING`);
      if (mayRun && (code === "SCOPE_MISSING" || code === "INTERNAL")) failures.push(`${label}, expected to run`);
      if (mayRun && res.isError && code === undefined) failures.push(`${label}: input refused before the verb ran (matrix input)`);
      const usesIds = Object.keys(args).some((k) => k.endsWith("_id"));
      if (mayRun && foreignIds && usesIds && !(res.isError && /NOT_FOUND$/.test(code ?? ""))) failures.push(`${label}, expected NOT_FOUND`);
      const foreign = caller.club === "ours" ? markers(other, "other") : markers(ours, "ours");
      const sent = JSON.stringify(args);
      const leaked = foreign.filter((m) => text.includes(m) && !sent.includes(m));
      if (leaked.length) failures.push(`${label}: carries another club's data (${leaked.join(", ")})`);
    }
    await client.close();
  }
  // Without a valid key the MCP endpoint itself refuses (the HTTP rows above check the 401).
  return { cells, failures };
}
