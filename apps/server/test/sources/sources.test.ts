import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { listSourcesOutput } from "@mga/api";

import { ACME_TENANT } from "../support/tenants";
import { expectEnvelope, startTestApp, type TestApp } from "../support/test-app";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("GET /v1/sources", () => {
  describe("happy", () => {
    it("reflects the tenant's sources and defaults in both documented variants", async () => {
      const { key } = await app.newKey({ tenant: ACME_TENANT, scopes: ["sources:read"] });
      const res = await app.request("/v1/sources", { key });
      expect(res.status).toBe(200);
      expect(listSourcesOutput.parse(res.body)).toBeTruthy();
      expect(res.body).toEqual({
        request_id: res.headers.get("x-request-id"),
        agency_source_types: ["fannie_mae", "freddie_mac", "fha", "va"],
        enabled_sources: ["fannie_mae", "freddie_mac", "fha", "va"],
        base_sources: ["fannie_mae"],
        tenant_source_keys: ["acme_overlays", "acme_jumbo"],
        tenant_sources: ACME_TENANT.tenantSources,
        tenant_source_sidebar_mode: "grouped",
        secondary_sources: ACME_TENANT.secondarySources,
        default_tenant_source_keys: ["acme_overlays"],
        shared_source_types: ["state_rules", "mi_rules"],
        shared_sources: [
          { sourceType: "state_rules", label: "State rules", description: "State lending rules", defaultOn: true },
          { sourceType: "mi_rules", label: "mi_rules", defaultOn: false },
        ],
        default_shared_source_types: ["state_rules"],
        assigned_shared_source_types: ["state_rules", "mi_rules"],
      });
    });

    it("labels every source of the README's example tenant (examples/tenant.json) in words, not by its key", async () => {
      const example = JSON.parse(
        readFileSync(new URL("../../../../examples/tenant.json", import.meta.url), "utf8"),
      ) as Record<string, unknown>;
      const { key } = await app.newKey({ tenant: example, scopes: ["sources:read"] });
      const res = await app.request("/v1/sources", { key });
      expect(res.status).toBe(200);
      const labels = [
        ...(res.body.tenant_sources as Array<{ key: string; label: string }>).map((source) => [
          source.key,
          source.label,
        ]),
        ...(res.body.shared_sources as Array<{ sourceType: string; label: string }>).map((source) => [
          source.sourceType,
          source.label,
        ]),
      ];
      expect(labels.length).toBeGreaterThan(0);
      expect(labels.filter(([id, label]) => id === label)).toEqual([]);
    });

    it("has every field required by either variant even for an unconfigured tenant", async () => {
      const { key } = await app.newKey({ scopes: ["sources:read"] });
      const res = await app.request("/v1/sources", { key });
      const embeddingVariant = [
        "request_id",
        "agency_source_types",
        "tenant_source_keys",
        "tenant_sources",
        "default_tenant_source_keys",
        "shared_source_types",
        "shared_sources",
        "default_shared_source_types",
      ];
      const conversationVariant = [
        "request_id",
        "agency_source_types",
        "enabled_sources",
        "base_sources",
        "tenant_sources",
        "tenant_source_keys",
        "secondary_sources",
        "default_tenant_source_keys",
        "default_shared_source_types",
        "assigned_shared_source_types",
      ];
      for (const field of [...embeddingVariant, ...conversationVariant]) expect(res.body).toHaveProperty(field);
      expect(res.body.tenant_source_sidebar_mode).toBeNull();
    });
  });

  describe("errors", () => {
    it("rejects unknown query parameters with 400 naming them", async () => {
      const { key } = await app.newKey({ tenant: ACME_TENANT, scopes: ["sources:read"] });
      const error = expectEnvelope(await app.request("/v1/sources?verbose=1", { key }), 400, "invalid_request");
      expect(error.message).toContain("verbose");
    });
  });

  describe("security", () => {
    it("needs the sources:read scope", async () => {
      const { key } = await app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read", "chat:write"] });
      const error = expectEnvelope(await app.request("/v1/sources", { key }), 403, "forbidden");
      expect(error.message).toContain("sources:read");
    });

    it("answers 401 before 403 for a missing key", async () => {
      expectEnvelope(await app.request("/v1/sources"), 401, "unauthorized");
    });
  });
});
