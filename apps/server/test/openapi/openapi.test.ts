import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("GET /v1/openapi.json", () => {
  it("is a valid OpenAPI 3.x document, version 1.0.0", async () => {
    const res = await app.request("/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.info.version).toBe("1.0.0");
    // Throws with the list of problems when the document is not valid.
    await SwaggerParser.validate(structuredClone(res.body));
  });

  it("documents both auth headers, every route, the envelope and the scopes", async () => {
    const doc = (await app.request("/v1/openapi.json")).body;
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
    });
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/v1/conversations",
      "/v1/conversations/{conversationId}",
      "/v1/conversations/{conversationId}/cancel",
      "/v1/conversations/{conversationId}/messages",
      "/v1/conversations/{conversationId}/stream",
      "/v1/embed-sessions",
      "/v1/events",
      "/v1/integrations/{integration}/teams",
      "/v1/integrations/{integration}/teams/{external_team_id}",
      "/v1/integrations/{integration}/user-imports",
      "/v1/integrations/{integration}/user-imports/{job_id}",
      "/v1/integrations/{integration}/user-operations/{operation_id}",
      "/v1/integrations/{integration}/users",
      "/v1/integrations/{integration}/users/{external_user_id}",
      "/v1/integrations/{integration}/users/{external_user_id}/deletions",
      "/v1/integrations/{integration}/users/{external_user_id}/profile-changes",
      "/v1/integrations/{integration}/users/{external_user_id}/reprovision",
      "/v1/me",
      "/v1/messages",
      "/v1/sources",
      "/v1/usage",
    ]);
    expect(Object.keys(doc.paths["/v1/integrations/{integration}/users/{external_user_id}"]).sort()).toEqual([
      "get",
      "patch",
      "put",
    ]);
    expect(doc.paths["/v1/integrations/{integration}/users"].get["x-required-scope"]).toBe("embed:users:read");
    const deletion = doc.paths["/v1/integrations/{integration}/users/{external_user_id}/deletions"].post;
    expect(deletion["x-required-scope"]).toBe("embed:users:delete");
    expect(Object.keys(deletion.responses)).toContain("202");
    expect(deletion.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: "header", name: "Idempotency-Key", required: true })]),
    );
    expect(Object.keys(doc.paths["/v1/conversations"].post.responses)).toContain("201");
    expect(doc.paths["/v1/conversations"].post.responses["200"]).toBeUndefined();
    expect(doc.paths["/v1/messages"].post.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: "header", name: "Idempotency-Key" })]),
    );
    expect(doc.paths["/v1/conversations/{conversationId}/messages"].get["x-required-scope"]).toBe("chat:read");
    expect(doc.paths["/v1/usage"].get["x-required-scope"]).toBe("chat:read");
    expect(Object.keys(doc.paths["/v1/messages"].post.responses["200"].content).sort()).toEqual([
      "application/json",
      "text/event-stream",
    ]);
    const me = doc.paths["/v1/me"].get;
    expect(me.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    expect(me.responses["200"].content["application/json"].schema).toBeTruthy();
    expect(me.responses["401"]).toEqual({ $ref: "#/components/responses/Error401" });
    expect(me.responses["403"]).toBeUndefined();
    const sources = doc.paths["/v1/sources"].get;
    expect(sources["x-required-scope"]).toBe("sources:read");
    expect(sources.responses["403"]).toBeTruthy();
    expect(doc.components.schemas.ErrorEnvelope.properties.error.required.sort()).toEqual([
      "code",
      "message",
      "request_id",
    ]);
  });

  it("states its license at a URL that resolves, and the public origin as its one server", async () => {
    const doc = (await app.request("/v1/openapi.json")).body;
    expect(doc.servers).toEqual([expect.objectContaining({ url: app.baseUrl })]);
    expect(doc.info.license.name).toBe("Proprietary");
    expect(doc.info.license.url).toBe(`${app.baseUrl}/license`);
    const page = await fetch(doc.info.license.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/^Proprietary\./);
  });
});
