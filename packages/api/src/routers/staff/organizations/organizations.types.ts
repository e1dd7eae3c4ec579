import { z } from "zod";

import { AGENCY_SOURCE_TYPES } from "@mga/core/sources";

import { tenantSchema } from "../../keys/keys.types";
import { countSchema, staffId } from "../staff.types";

/** Organizations and their tenant configuration (spec 2.3/2.4). */
const orgName = z.string().trim().min(1).max(200);

export const organizationIdInput = z.strictObject({ id: staffId });

export const listOrganizationsOutput = z.array(
  z.strictObject({
    id: z.string(),
    name: z.string(),
    created_at: z.iso.datetime(),
    integrations: countSchema,
    active_keys: countSchema,
  }),
);

export const getOrganizationOutput = z.strictObject({
  id: z.string(),
  name: z.string(),
  created_at: z.iso.datetime(),
  tenant: tenantSchema,
  tenant_configured_at: z.iso.datetime().nullable(),
  suggested_agency_sources: z.array(z.enum(AGENCY_SOURCE_TYPES)),
  /** What stops a deletion (all 0: it can be deleted, with its revoked keys and disabled integrations). */
  deletion_blockers: z.strictObject({
    active_keys: countSchema,
    active_integrations: countSchema,
    partner_users: countSchema,
  }),
});

export const createOrganizationInput = z.strictObject({ name: orgName });
export const renameOrganizationInput = z.strictObject({ id: staffId, name: orgName });
/** What create and rename return. */
export const organizationNameSchema = z.strictObject({ id: z.string(), name: z.string() });

export const deleteOrganizationOutput = z.strictObject({ id: z.string(), deleted: z.literal(true) });

export const configureTenantInput = z.strictObject({ id: staffId, config: z.unknown() });
/** Invalid input is a result with one issue per field (the form shows each beside its input), not an error. */
export const configureTenantOutput = z.discriminatedUnion("saved", [
  z.strictObject({
    saved: z.literal(false),
    issues: z.array(z.strictObject({ field: z.string(), message: z.string() })),
  }),
  z.strictObject({ saved: z.literal(true), config: tenantSchema }),
]);
