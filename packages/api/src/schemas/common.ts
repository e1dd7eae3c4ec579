import { z } from "zod";

import { ERROR_CODES } from "@mga/core/errors";
import { IDEMPOTENCY_KEY_PATTERN } from "@mga/core/idempotency";

import { NAME_PATTERN } from "./request-text";

/** `request_id` on every JSON response (spec section 1). */
export const requestIdField = z
  .string()
  .min(1)
  .meta({ description: "Unique id of this request, also sent as X-Request-Id." });

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

/**
 * A name people read (a team's, a partner user's; spec 8: 1-120 characters). Stored trimmed,
 * so a blank one, `"\u00a0"` included, would leave nothing: it is refused by the pattern the
 * OpenAPI document shows, and the length is the one sent.
 */
export const nameSchema = z
  .string()
  .max(120)
  .regex(new RegExp(NAME_PATTERN), "must not be blank")
  .trim()
  .meta({ description: "1-120 characters, not all whitespace; stored without surrounding whitespace." });

/** The Idempotency-Key header (spec 8), as core's parser accepts it (the same pattern). */
export const idempotencyKeySchema = z
  .string()
  .regex(IDEMPOTENCY_KEY_PATTERN, "must be 1-255 printable ASCII characters without spaces");

/**
 * A route input whose optional fields may not all be left out (PATCH team, profile changes):
 * `{}` is a 400 with `message`, and the OpenAPI document gives the body `minProperties: 1`
 * (openapi-document.ts reads it from this meta). Path parameters are required fields, so the
 * optional ones are exactly the body's.
 */
export function refuseEmptyBody<T extends z.ZodObject>(input: T, message: string): T {
  const optional = Object.entries(input.shape)
    .filter(([, field]) => z.safeParse(field, undefined).success)
    .map(([key]) => key);
  return input
    .refine((value) => optional.some((key) => (value as Record<string, unknown>)[key] !== undefined), message)
    .meta({ minProperties: 1 });
}
