import { AppError } from "../errors/app-error";
import { buildSourceCatalog } from "../sources/source-catalog";
import type { TenantConfig } from "../tenants/tenant-config.schema";

/** The sources one message is answered from (spec 4.2 selection rules). */
export interface SourceSelection {
  agency_source_types: string[];
  tenant_source_keys: string[];
  shared_source_types: string[];
}

export type SearchOptions = Partial<SourceSelection>;

/**
 * Checks a request's `search_options` against what the key's tenant allows. Each category
 * the request leaves out takes the tenant's default (agency: `baseSources`; buckets:
 * the default tenant keys; shared: the default shared types); a category that is sent
 * replaces its default, so `[]` switches it off. Anything not allowed, or nothing left, is
 * a 400 naming the offending values.
 */
export function resolveSourceSelection(tenant: TenantConfig, options: SearchOptions | undefined): SourceSelection {
  const catalog = buildSourceCatalog(tenant);
  const pick = (
    field: keyof SourceSelection,
    requested: string[] | undefined,
    allowed: string[],
    defaults: string[],
  ) => {
    if (requested === undefined) return defaults.filter((value) => allowed.includes(value));
    const refused = requested.filter((value) => !allowed.includes(value));
    if (refused.length) {
      throw new AppError(
        "invalid_request",
        `search_options.${field}: not available to this key: ${refused.join(", ")}`,
      );
    }
    return [...new Set(requested)];
  };
  const selection: SourceSelection = {
    agency_source_types: pick(
      "agency_source_types",
      options?.agency_source_types,
      catalog.agency_source_types,
      catalog.base_sources,
    ),
    tenant_source_keys: pick(
      "tenant_source_keys",
      options?.tenant_source_keys,
      catalog.tenant_source_keys,
      catalog.default_tenant_source_keys,
    ),
    shared_source_types: pick(
      "shared_source_types",
      options?.shared_source_types,
      catalog.shared_source_types,
      catalog.default_shared_source_types,
    ),
  };
  if (
    !selection.agency_source_types.length &&
    !selection.tenant_source_keys.length &&
    !selection.shared_source_types.length
  ) {
    throw new AppError(
      "invalid_request",
      "search_options: no source left to answer from; select at least one source (see GET /v1/sources)",
    );
  }
  return selection;
}
