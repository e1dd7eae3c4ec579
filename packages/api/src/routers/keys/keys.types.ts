import { z } from "zod";

import { KEY_STATUSES, SCOPES } from "@mga/core/keys";
import { tenantConfigShape } from "@mga/core/tenants";

import { noParamsSchema, requestIdField } from "../../schemas/common";

export const clientSchema = z
  .strictObject({
    name: z.string().min(1),
    organization: z.string().optional(),
  })
  .meta({ id: "Client" });

export const tenantSchema = tenantConfigShape.meta({ id: "TenantConfiguration" });

/**
 * The key record of spec 2.2. The spec shows two variants (one with `tenant`, one with
 * `client`); this record carries both so it satisfies either.
 */
export const apiKeyRecordSchema = z
  .strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    status: z.enum(KEY_STATUSES),
    scopes: z.array(z.enum(SCOPES)),
    last_four: z.string().min(1),
    /** When the key stops working; present only when it has an expiry (an addition to spec 2.2). */
    expires_at: z.iso.datetime().optional(),
    tenant: tenantSchema,
    client: clientSchema,
  })
  .meta({ id: "ApiKeyRecord" });

export const getMeInput = noParamsSchema;
export const getMeOutput = z
  .strictObject({ request_id: requestIdField, key: apiKeyRecordSchema })
  .meta({ id: "GetMeResponse" });
