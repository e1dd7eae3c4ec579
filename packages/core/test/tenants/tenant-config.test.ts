import { describe, expect, it } from "vitest";

import { AppError } from "../../src/errors/app-error";
import { parseOrThrow } from "../../src/errors/zod-issues";
import { tenantConfigSchema, tenantConfigShape, type TenantConfig } from "../../src/tenants/tenant-config.schema";

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

  it("a configuration that passed the rules has the shape responses check (the shape has every field and no other)", () => {
    const everyField = {
      ...valid,
      clientName: "  Acme  ",
      clientOrganization: "Acme Holdings",
      clientSourceType: " acme_bucket ",
      tenantSourceSidebarMode: "grouped",
      tenantSourceKeys: ["acme", "acme_loans"],
      tenantSources: [
        { key: " acme ", label: "Acme", description: "Our overlays", groupLabel: "Ours", defaultOn: true },
        { key: "acme_loans", label: "Loans", defaultOn: false },
      ],
      secondarySources: [
        { type: "tenant_bucket", key: "acme", label: "Acme", defaultOn: false },
        { type: "shared_source", sourceType: "state", label: "State", groupLabel: "Shared", defaultOn: true },
      ],
    };
    const stored: TenantConfig = tenantConfigSchema.parse(everyField);
    expect(stored.clientName).toBe("Acme");
    expect(Object.keys(tenantConfigShape.shape).sort()).toEqual(Object.keys(tenantConfigSchema.shape).sort());
    expect(Object.keys(everyField).sort()).toEqual(Object.keys(tenantConfigShape.shape).sort());
    expect(tenantConfigShape.parse(stored)).toEqual(stored);
  });

  it("the shape alone still refuses what a response must never carry: an unknown field, a wrong type, an overlong value", () => {
    const stored = tenantConfigSchema.parse(valid);
    expect(tenantConfigShape.safeParse({ ...stored, secret: "x" }).success).toBe(false);
    expect(tenantConfigShape.safeParse({ ...stored, enabledSources: ["somewhere"] }).success).toBe(false);
    expect(tenantConfigShape.safeParse({ ...stored, clientName: "x".repeat(201) }).success).toBe(false);
  });
});
