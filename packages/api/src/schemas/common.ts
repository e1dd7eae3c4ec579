import { z } from "zod";
import { ERROR_CODES } from "@mga/core/errors";

/** `request_id` on every JSON response (spec section 1). */
export const requestIdField = z.string().min(1).meta({ description: "Unique id of this request, also sent as X-Request-Id." });

/** The one error shape of the API (spec section 7). */
export const errorEnvelopeSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      request_id: requestIdField,
    }),
  })
  .meta({ id: "ErrorEnvelope" });

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Routes with no parameters still reject unknown query parameters. */
export const noParamsSchema = z.strictObject({});
