import { selectableTenantSourceKeys, type SecondarySource, type TenantConfig } from "../tenants/tenant-config.schema";
import type { AgencySourceType } from "./agency-sources";

/**
 * What a key may select, in the wire shape of GET /v1/sources. The spec shows two variants
 * of this response; this carries the union of both variants' fields so that a client
 * written against either one works (see docs/decisions.md).
 */
export interface SourceCatalog {
  agency_source_types: AgencySourceType[];
  enabled_sources: AgencySourceType[];
  base_sources: AgencySourceType[];
  tenant_source_keys: string[];
  tenant_sources: Array<{ key: string; label: string; description?: string; groupLabel?: string; defaultOn: boolean }>;
  tenant_source_sidebar_mode: "hidden" | "flat" | "grouped" | null;
  secondary_sources: SecondarySource[];
  default_tenant_source_keys: string[];
  shared_source_types: string[];
  shared_sources: Array<{ sourceType: string; label: string; description?: string; defaultOn: boolean }>;
  default_shared_source_types: string[];
  assigned_shared_source_types: string[];
}

export function buildSourceCatalog(config: TenantConfig): SourceCatalog {
  const tenantKeys = selectableTenantSourceKeys(config);
  const described = new Map((config.tenantSources ?? []).map((source) => [source.key, source]));
  // Every selectable bucket gets an entry; one without a description is labelled by its key.
  const tenantSources = tenantKeys.map((key) => described.get(key) ?? { key, label: key, defaultOn: false });
  const assignedShared = config.assignedSharedSourceTypes ?? [];
  const defaultShared = config.defaultSharedSourceTypes ?? [];
  const sharedEntries = new Map(
    (config.secondarySources ?? []).flatMap((entry) =>
      entry.type === "shared_source" ? [[entry.sourceType, entry] as const] : [],
    ),
  );
  const sharedSources = assignedShared.map((sourceType) => {
    const entry = sharedEntries.get(sourceType);
    return {
      sourceType,
      label: entry?.label ?? sourceType,
      ...(entry?.description !== undefined ? { description: entry.description } : {}),
      defaultOn: entry?.defaultOn ?? defaultShared.includes(sourceType),
    };
  });
  return {
    agency_source_types: [...config.enabledSources],
    enabled_sources: [...config.enabledSources],
    base_sources: [...config.baseSources],
    tenant_source_keys: tenantKeys,
    tenant_sources: tenantSources,
    tenant_source_sidebar_mode: config.tenantSourceSidebarMode ?? null,
    secondary_sources: config.secondarySources ?? [],
    default_tenant_source_keys:
      config.defaultTenantSourceKeys ?? tenantSources.filter((source) => source.defaultOn).map((source) => source.key),
    shared_source_types: assignedShared,
    shared_sources: sharedSources,
    default_shared_source_types: defaultShared,
    assigned_shared_source_types: assignedShared,
  };
}
