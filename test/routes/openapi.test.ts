// The OpenAPI description and the docs page: valid, complete, named shapes, offline assets.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let spec: any;
beforeAll(async () => {
  env = await setup();
  spec = (await env.call("GET", "/api/public/openapi.json", { key: null })).body;
});
afterAll(() => env.close());

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

describe("OpenAPI description", () => {
  it("is valid OpenAPI 3.1 with version 1.0 and a bearer scheme", async () => {
    expect(spec.openapi).toStartWith("3.1");
    expect(spec.info.version).toBe("1.0");
    expect(spec.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    await SwaggerParser.validate(structuredClone(spec));
  });

  it("documents every route of the router except the hidden ones", () => {
    const missing = env.app.routes
      .filter((r) => !r.spec.hidden)
      .filter((r) => !spec.paths[openApiPath(r.path)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it("names the SPEC's shapes as components and references them", () => {
    for (const name of ["AdminMe", "ClubAdmin", "ClubUpdate", "CardBackField", "CardLocation"]) expect(spec.components.schemas[name]).toBeDefined();
    const put = spec.paths["/api/clubs/{club_id}"].put;
    expect(put.requestBody.content["application/json"].schema.$ref).toBe("#/components/schemas/ClubUpdate");
    expect(put.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/ClubAdmin");
    expect(put.responses["422"]).toBeDefined();
    expect(spec.components.schemas.ClubAdmin.properties.card_back_fields.anyOf[0].items.$ref).toBe("#/components/schemas/CardBackField");
    expect(spec.paths["/api/auth/me"].get.security).toEqual([{ bearer: [] }]);
  });

  it("documents yes/no query values with the values they take, and each documented value is taken", async () => {
    const param = spec.paths["/api/clubs/{club_id}/tiers"].get.parameters.find((p: { name: string }) => p.name === "include_inactive");
    expect(param.schema.type).toBe("string");
    expect(param.schema.enum).toEqual(expect.arrayContaining(["true", "false", "1", "0", "yes", "no"]));
    for (const value of param.schema.enum) {
      const res = await env.call("GET", `/api/clubs/${env.clubId}/tiers?include_inactive=${value}`);
      expect(res.status).toBe(200);
    }
    expect((await env.call("GET", `/api/clubs/${env.clubId}/tiers?include_inactive=maybe`)).status).toBe(422);
  });

  it("serves the docs page with its assets from this server, not a CDN", async () => {
    const page = await env.call("GET", "/api/public/docs", { key: null });
    expect(page.status).toBe(200);
    expect(page.text).toContain("/api/public/docs/assets/swagger-ui-bundle.js");
    expect(page.text).not.toMatch(/https?:\/\/(unpkg|cdn\.jsdelivr)/);
    // The spec's address must be absolute: a relative one resolves under /api/public/ and 404s.
    expect(page.text).toContain('"url":"/api/public/openapi.json"');
    const js = await env.app.handle(new Request("http://localhost/api/public/docs/assets/swagger-ui-bundle.js"));
    expect(js.status).toBe(200);
    expect((await js.text()).length).toBeGreaterThan(100_000);
  });
});
