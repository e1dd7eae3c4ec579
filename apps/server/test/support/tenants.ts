/** A complete tenant configuration (spec 2.3/2.4) used across tests. */
export const ACME_TENANT = {
  clientName: "Acme Lending",
  clientOrganization: "Acme Lending Corp.",
  enabledSources: ["fannie_mae", "freddie_mac", "fha", "va"],
  baseSources: ["fannie_mae"],
  clientSourceType: "acme",
  tenantSourceSidebarMode: "grouped",
  tenantSources: [
    {
      key: "acme_overlays",
      label: "Acme overlays",
      description: "Internal overlays",
      groupLabel: "Acme",
      defaultOn: true,
    },
    { key: "acme_jumbo", label: "Acme jumbo", groupLabel: "Acme", defaultOn: false },
  ],
  secondarySources: [
    { type: "tenant_bucket", key: "acme_jumbo", label: "Acme jumbo", groupLabel: "Acme", defaultOn: false },
    {
      type: "shared_source",
      sourceType: "state_rules",
      label: "State rules",
      description: "State lending rules",
      groupLabel: "Shared",
      defaultOn: true,
    },
  ],
  defaultTenantSourceKeys: ["acme_overlays"],
  assignedSharedSourceTypes: ["state_rules", "mi_rules"],
  defaultSharedSourceTypes: ["state_rules"],
} as const;
