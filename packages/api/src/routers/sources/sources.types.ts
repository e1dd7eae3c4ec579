import { z } from "zod";

import { agencySourceTypeSchema } from "@mga/core/sources";
import { secondarySourceSchema, sidebarModeSchema, tenantSourceSchema } from "@mga/core/tenants";

import { noParamsSchema, requestIdField } from "../../schemas/common";

const ids = z.array(z.string());
const agencyTypes = z.array(agencySourceTypeSchema);

export const sharedSourceSchema = z
  .strictObject({
    sourceType: z.string().min(1),
    label: z.string().min(1),
    description: z.string().optional(),
    defaultOn: z.boolean(),
  })
  .meta({ id: "SharedSource" });

/**
 * GET /v1/sources (spec 4.2): the union of both documented variants' fields, so clients
 * of either variant find everything they require.
 */
export const listSourcesOutput = z
  .strictObject({
    request_id: requestIdField,
    agency_source_types: agencyTypes,
    enabled_sources: agencyTypes,
    base_sources: agencyTypes,
    tenant_source_keys: ids,
    tenant_sources: z.array(tenantSourceSchema.meta({ id: "TenantSource" })),
    tenant_source_sidebar_mode: sidebarModeSchema.nullable(),
    secondary_sources: z.array(secondarySourceSchema.meta({ id: "SecondarySource" })),
    default_tenant_source_keys: ids,
    shared_source_types: ids,
    shared_sources: z.array(sharedSourceSchema),
    default_shared_source_types: ids,
    assigned_shared_source_types: ids,
  })
  .meta({ id: "ListSourcesResponse" });

export const listSourcesInput = noParamsSchema;
