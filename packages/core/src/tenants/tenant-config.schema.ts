import { z } from "zod";

import { AGENCY_SOURCE_TYPES, agencySourceTypeSchema, describeAgencySources } from "../sources/agency-sources";

/**
 * The tenant configuration of spec 2.3/2.4, in two layers:
 * - its shape (`tenantConfigShape`): the fields, their types and limits. Responses that carry a
 *   stored configuration (GET /v1/me's `key.tenant`, GET /v1/sources, the console) check this
 *   shape only: what is stored passed the rules when it was written, and checking them again
 *   cost every GET /v1/me several microseconds of refinements.
 * - its rules (`tenantConfigSchema`): the shape with trimming and the consistency checks, as an
 *   operator writes it (`tenant:configure --file`, the console). Stored as JSON after these
 *   checks, so every reader can trust its shape and its internal consistency.
 */
const SOURCE_ID_MAX = 128;
const LABEL_MAX = 200;
const LIST_MAX = 200;
const sourceIdShape = z.string().min(1).max(SOURCE_ID_MAX);
const labelShape = z.string().min(1).max(LABEL_MAX);
const descriptionShape = z.string().max(1000).optional();
const groupLabelShape = z.string().max(LABEL_MAX).optional();
const idListShape = z.array(sourceIdShape).max(LIST_MAX);
const agencySourcesShape = z.array(agencySourceTypeSchema).max(LIST_MAX);

export const tenantSourceSchema = z.strictObject({
  key: sourceIdShape,
  label: labelShape,
  description: descriptionShape,
  groupLabel: groupLabelShape,
  defaultOn: z.boolean(),
});

const tenantBucketShape = z.strictObject({
  type: z.literal("tenant_bucket"),
  key: sourceIdShape,
  label: labelShape,
  description: descriptionShape,
  groupLabel: groupLabelShape,
  defaultOn: z.boolean(),
});

const sharedSourceShape = z.strictObject({
  type: z.literal("shared_source"),
  sourceType: sourceIdShape,
  label: labelShape,
  description: descriptionShape,
  groupLabel: groupLabelShape,
  defaultOn: z.boolean(),
});

export const secondarySourceSchema = z.discriminatedUnion("type", [tenantBucketShape, sharedSourceShape]);

export const sidebarModeSchema = z.enum(["hidden", "flat", "grouped"]);

export const tenantConfigShape = z.strictObject({
  clientName: z.string().min(1).max(LABEL_MAX),
  clientOrganization: z.string().max(LABEL_MAX).optional(),
  enabledSources: agencySourcesShape,
  baseSources: agencySourcesShape,
  clientSourceType: sourceIdShape.optional(),
  tenantSourceSidebarMode: sidebarModeSchema.optional(),
  tenantSourceKeys: idListShape.optional(),
  tenantSources: z.array(tenantSourceSchema).max(LIST_MAX).optional(),
  secondarySources: z.array(secondarySourceSchema).max(LIST_MAX).optional(),
  defaultTenantSourceKeys: idListShape.optional(),
  defaultSharedSourceTypes: idListShape.optional(),
  assignedSharedSourceTypes: idListShape.optional(),
});

// The rules: each field of the shape again, with what an operator's input must also satisfy.
const sourceId = z.string().trim().min(1, "required").max(SOURCE_ID_MAX);
// A label is what end users read in the source picker: spaces alone are refused like nothing
// (an empty label keeps its short message only; no `abort`, which would skip the checks of the
// whole configuration below).
const label = z
  .string()
  .min(1, "required")
  .max(LABEL_MAX)
  .refine((value) => value.length === 0 || value.trim().length > 0, "Enter a label: spaces alone are not one.");

const tenantSourceRules = tenantSourceSchema.extend({ key: sourceId, label });

const secondarySourceRules = z.discriminatedUnion("type", [
  tenantBucketShape.extend({ key: sourceId, label }),
  sharedSourceShape.extend({ sourceType: sourceId, label }),
]);

const uniqueIds = z
  .array(sourceId)
  .max(LIST_MAX)
  .refine((items) => new Set(items).size === items.length, "must not repeat a value");

// Checked as text first so that the operator's message names the field and what the service
// offers (an enum would report "enabledSources.1: Invalid option"); then typed as the closed list.
const offered = new Set<string>(AGENCY_SOURCE_TYPES);
const agencySources = uniqueIds
  .superRefine((items, ctx) => {
    for (const source of items) {
      if (!offered.has(source))
        ctx.addIssue({
          code: "custom",
          message: `Unknown agency source "${source}": the service offers ${describeAgencySources()}.`,
        });
    }
  })
  .pipe(agencySourcesShape);

export const tenantConfigSchema = tenantConfigShape
  .extend({
    clientName: z.string().trim().min(1).max(LABEL_MAX),
    enabledSources: agencySources,
    baseSources: agencySources,
    clientSourceType: sourceId.optional(),
    tenantSourceKeys: uniqueIds.optional(),
    tenantSources: z.array(tenantSourceRules).max(LIST_MAX).optional(),
    secondarySources: z.array(secondarySourceRules).max(LIST_MAX).optional(),
    defaultTenantSourceKeys: uniqueIds.optional(),
    defaultSharedSourceTypes: uniqueIds.optional(),
    assignedSharedSourceTypes: uniqueIds.optional(),
  })
  .superRefine((config, ctx) => {
    const fail = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    const enabled = new Set(config.enabledSources);
    for (const base of config.baseSources) {
      // A source the service does not offer has its own message already (one problem, one message).
      if (!enabled.has(base) && offered.has(base)) fail("baseSources", `"${base}" is not in enabledSources`);
    }
    const bucketKeys = new Set(selectableTenantSourceKeys(config));
    const described = (config.tenantSources ?? []).map((source) => source.key);
    if (new Set(described).size !== described.length) fail("tenantSources", "keys must be unique");
    for (const key of described) {
      if (!bucketKeys.has(key)) fail("tenantSources", `"${key}" is not in tenantSourceKeys`);
    }
    for (const key of config.defaultTenantSourceKeys ?? []) {
      if (!bucketKeys.has(key)) fail("defaultTenantSourceKeys", `"${key}" is not an assigned tenant source`);
    }
    const shared = new Set(config.assignedSharedSourceTypes ?? []);
    for (const type of config.defaultSharedSourceTypes ?? []) {
      if (!shared.has(type)) fail("defaultSharedSourceTypes", `"${type}" is not in assignedSharedSourceTypes`);
    }
    for (const entry of config.secondarySources ?? []) {
      if (entry.type === "tenant_bucket" && !bucketKeys.has(entry.key)) {
        fail("secondarySources", `tenant bucket "${entry.key}" is not an assigned tenant source`);
      }
      if (entry.type === "shared_source" && !shared.has(entry.sourceType)) {
        fail("secondarySources", `shared source "${entry.sourceType}" is not in assignedSharedSourceTypes`);
      }
    }
  });

export type TenantConfig = z.infer<typeof tenantConfigShape>;
export type TenantSource = z.infer<typeof tenantSourceSchema>;
export type SecondarySource = z.infer<typeof secondarySourceSchema>;

/** The tenant buckets a key may select: `tenantSourceKeys`, or else the described buckets. */
export function selectableTenantSourceKeys(config: Pick<TenantConfig, "tenantSourceKeys" | "tenantSources">): string[] {
  return config.tenantSourceKeys ?? (config.tenantSources ?? []).map((source) => source.key);
}
