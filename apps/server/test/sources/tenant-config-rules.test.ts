import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { AGENCY_SOURCE_TYPES } from "@mga/core/sources";
import { configureTenant, getTenantConfig, validateTenantConfig } from "@mga/core/tenants";

import { ACME_TENANT } from "../support/tenants";
import { startTestApp, type TestApp } from "../support/test-app";

/**
 * The tenant configuration's validation is one schema for the CLI (`tenant:configure`, which
 * calls configureTenant) and the console (staff.organizations.configureTenant, which calls
 * validateTenantConfig first): a blank label and an unknown agency source are refused by both.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const blankLabel = {
  ...ACME_TENANT,
  tenantSources: [{ key: "acme_overlays", label: "   ", defaultOn: true }, ACME_TENANT.tenantSources[1]],
};
const unknownSource = { ...ACME_TENANT, enabledSources: ["fha", "conventional"], baseSources: ["fha"] };

describe("tenant configuration rules", () => {
  it("refuses a label of spaces only, beside that row's label", () => {
    expect(validateTenantConfig(blankLabel)).toEqual({
      ok: false,
      issues: [{ field: "tenantSources", message: "0.label: Enter a label: spaces alone are not one." }],
    });
    // An empty label keeps its short message (one issue, not two).
    const empty = validateTenantConfig({
      ...ACME_TENANT,
      tenantSources: [{ key: "acme_overlays", label: "", defaultOn: true }, ACME_TENANT.tenantSources[1]],
    });
    expect(empty).toEqual({ ok: false, issues: [{ field: "tenantSources", message: "0.label: required" }] });
  });

  it("refuses an agency source the service does not offer, naming the ones it does", () => {
    expect(validateTenantConfig(unknownSource)).toEqual({
      ok: false,
      issues: [
        {
          field: "enabledSources",
          message:
            'Unknown agency source "conventional": the service offers fannie_mae, freddie_mac, fha, va and usda.',
        },
      ],
    });
    expect(validateTenantConfig({ ...ACME_TENANT, enabledSources: [...AGENCY_SOURCE_TYPES] }).ok).toBe(true);
  });

  it("stores neither through configureTenant (the CLI's path): a 400 naming the field, the stored configuration unchanged", async () => {
    const key = await app.newKey({ scopes: ["chat:read"] });
    await configureTenant(app.t.db, { organizationId: key.organizationId, config: ACME_TENANT });
    await expect(
      configureTenant(app.t.db, { organizationId: key.organizationId, config: blankLabel }),
    ).rejects.toMatchObject({
      code: "invalid_request",
      message: "tenant.tenantSources.0.label: Enter a label: spaces alone are not one.",
    });
    await expect(
      configureTenant(app.t.db, { organizationId: key.organizationId, config: unknownSource }),
    ).rejects.toMatchObject({
      code: "invalid_request",
      message:
        'tenant.enabledSources: Unknown agency source "conventional": the service offers fannie_mae, freddie_mac, fha, va and usda.',
    });
    expect((await getTenantConfig(app.t.db, key.organizationId)).enabledSources).toEqual(ACME_TENANT.enabledSources);
  });
});
