import { z } from "zod";

import { OPERATION_STATUSES, OPERATION_TYPES } from "@mga/core/partners/operations";
import { emailAddressSchema } from "@mga/core/partners/users";

import { idempotencyKeySchema, nameSchema, refuseEmptyBody, requestIdField } from "../../../schemas/common";
import { externalUserIdSchema, integrationSlugSchema, opaqueIdSchema } from "../../../schemas/partner-ids";
import { lifecycleOperationSummarySchema, partnerUserSchema, userPathInput } from "../users/users.types";

/** Lifecycle operations (spec 2.10, 3.2, 3.3, 4.10). Public shapes never carry notes, profile values or secrets. */

export const operationAcceptedSchema = z
  .strictObject({ request_id: requestIdField, operation: lifecycleOperationSummarySchema, user: partnerUserSchema })
  .meta({ id: "LifecycleOperationAccepted" });

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
export const getOperationOutput = z
  .strictObject({ request_id: requestIdField, operation: operationSchema })
  .meta({ id: "GetLifecycleOperationResponse" });

export const deletionInput = userPathInput.extend({
  note: z.string().max(1000).optional().meta({ description: "Audit note; stored, never returned." }),
});

export const profileChangeInput = refuseEmptyBody(
  userPathInput.extend({ email: emailAddressSchema.optional(), name: nameSchema.optional() }),
  "send email, name or both",
);

/** Reprovision body (spec: "not shown"): the returning user's email (deletion erased the old one). */
export const reprovisionInput = userPathInput.extend({ email: emailAddressSchema, name: nameSchema.optional() });

export const requiredIdempotencyHeader = z.object({
  "Idempotency-Key": idempotencyKeySchema.meta({
    description:
      "Required. A retry with the same key returns the same operation (for 24 hours). 1-255 printable ASCII characters without spaces, bare or in double quotes.",
  }),
});
