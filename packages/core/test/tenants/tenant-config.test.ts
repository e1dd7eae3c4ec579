import { describe, expect, it } from "vitest";

import { AppError } from "../../src/errors/app-error";
import { parseOrThrow } from "../../src/errors/zod-issues";
import { tenantConfigSchema } from "../../src/tenants/tenant-config.schema";

const valid = {
  clientName: "Acme",
  enabledSources: ["fannie_mae", "fha"],
  baseSources: ["fannie_mae"],
  tenantSources: [{ key: "acme", label: "Acme", defaultOn: true }],
  defaultTenantSourceKeys: ["acme"],
  assignedSharedSourceTypes: ["state"],
  defaultSharedSourceTypes: ["state"],
  secondarySources: [{ type: "shared_source", sourceType: "state", label: "State", defaultOn: true }],
};

function messageOf(config: unknown): string {
  try {
    parseOrThrow(tenantConfigSchema, config, "tenant");
    return "valid";
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).message;
  }
}

describe("tenant configuration", () => {
  it("accepts a consistent configuration", () => {
    expect(messageOf(valid)).toBe("valid");
  });

  it.each([
    [{ ...valid, clientName: "" }, "tenant.clientName"],
    [{ ...valid, surprise: 1 }, "unknown field: tenant.surprise"],
    [{ ...valid, enabledSources: "fha" }, "tenant.enabledSources"],
    [{ ...valid, baseSources: ["usda"] }, 'tenant.baseSources: "usda" is not in enabledSources'],
    [{ ...valid, defaultTenantSourceKeys: ["other"] }, "tenant.defaultTenantSourceKeys"],
    [{ ...valid, defaultSharedSourceTypes: ["federal"] }, "tenant.defaultSharedSourceTypes"],
    [{ ...valid, tenantSourceSidebarMode: "tree" }, "tenant.tenantSourceSidebarMode"],
    [{ ...valid, enabledSources: ["fha", "fha"] }, "must not repeat"],
    [
      { ...valid, secondarySources: [{ type: "shared_source", sourceType: "federal", label: "F", defaultOn: true }] },
      "tenant.secondarySources",
    ],
    [{ ...valid, tenantSources: [{ key: "acme", label: "Acme" }] }, "tenant.tenantSources.0.defaultOn"],
  ])("rejects %j naming the field", (config, expected) => {
    expect(messageOf(config)).toContain(expected);
  });
});
