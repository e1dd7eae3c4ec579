import { describe, expect, it } from "vitest";

import { resolveSourceSelection } from "../../src/conversations/source-selection";
import { type TenantConfig } from "../../src/tenants/tenant-config.schema";

const tenant: TenantConfig = {
  clientName: "Acme",
  enabledSources: ["fannie_mae", "fha", "va"],
  baseSources: ["fannie_mae"],
  tenantSources: [
    { key: "overlays", label: "Overlays", defaultOn: true },
    { key: "jumbo", label: "Jumbo", defaultOn: false },
  ],
  assignedSharedSourceTypes: ["state", "mi"],
  defaultSharedSourceTypes: ["state"],
};

describe("resolveSourceSelection", () => {
  it("uses the tenant defaults when search_options is omitted", () => {
    expect(resolveSourceSelection(tenant, undefined)).toEqual({
      agency_source_types: ["fannie_mae"],
      tenant_source_keys: ["overlays"],
      shared_source_types: ["state"],
    });
  });

  it("lets each sent category replace its default, and an empty list switch it off", () => {
    expect(
      resolveSourceSelection(tenant, { agency_source_types: ["fha", "va", "fha"], shared_source_types: [] }),
    ).toEqual({
      agency_source_types: ["fha", "va"],
      tenant_source_keys: ["overlays"],
      shared_source_types: [],
    });
  });

  it.each([
    [{ agency_source_types: ["usda"] }, "search_options.agency_source_types: not available to this key: usda"],
    [{ tenant_source_keys: ["someone_else"] }, "search_options.tenant_source_keys"],
    [{ shared_source_types: ["federal"] }, "search_options.shared_source_types"],
    [{ agency_source_types: [], tenant_source_keys: [], shared_source_types: [] }, "no source left"],
  ])("rejects %j", (options, message) => {
    expect(() => resolveSourceSelection(tenant, options)).toThrow(message);
  });

  it("rejects everything for a tenant with no sources", () => {
    expect(() =>
      resolveSourceSelection({ clientName: "Empty", enabledSources: [], baseSources: [] }, undefined),
    ).toThrow(/no source left/);
  });
});
