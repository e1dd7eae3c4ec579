import { OPERATION_STATUSES, OPERATION_TYPES } from "@mga/core/partners/operations";
import { z } from "zod";
import { requestIdField } from "../../../schemas/common";
import { externalUserIdSchema, integrationSlugSchema, opaqueIdSchema } from "../../../schemas/partner-ids";
import { lifecycleOperationSummarySchema, partnerUserSchema, userPathInput } from "../users/users.types";

/** Lifecycle operations (spec 2.10, 3.2, 3.3, 4.10). Public shapes never carry notes, profile values or secrets. */

export const operationAcceptedSchema = z.strictObject({ request_id: requestIdField, operation: lifecycleOperationSummarySchema, user: partnerUserSchema }).meta({ id: "LifecycleOperationAccepted" });

export const operationSchema = z
  .strictObject({
    operation_id: opaqueIdSchema,
    type: z.enum(OPERATION_TYPES),
    status: z.enum(OPERATION_STATUSES),
    error_code: opaqueIdSchema.nullable(),
    user: z.strictObject({ integration: integrationSlugSchema, external_user_id: externalUserIdSchema }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "LifecycleOperation" });

export const getOperationInput = z.strictObject({ integration: integrationSlugSchema, operation_id: opaqueIdSchema });
export const getOperationOutput = z.strictObject({ request_id: requestIdField, operation: operationSchema }).meta({ id: "GetLifecycleOperationResponse" });

export const deletionInput = userPathInput.extend({ note: z.string().max(1000).optional().meta({ description: "Audit note; stored, never returned." }) });

export const profileChangeInput = userPathInput
  .extend({ email: z.email().max(254).optional(), name: z.string().trim().min(1).max(120).optional() })
  .refine((input) => input.email !== undefined || input.name !== undefined, "send email, name or both");

/** Reprovision body (spec: "not shown"): the returning user's email (deletion erased the old one). */
export const reprovisionInput = userPathInput.extend({ email: z.email().max(254), name: z.string().trim().min(1).max(120).optional() });

export const requiredIdempotencyHeader = z.object({
  "Idempotency-Key": z.string().min(1).max(255).meta({ description: "Required. A retry with the same key returns the same operation." }),
});
