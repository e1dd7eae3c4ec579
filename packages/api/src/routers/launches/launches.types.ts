import { z } from "zod";

import { LOAN_PROGRAMS, LOAN_PURPOSES, MILESTONES, OCCUPANCIES, PROPERTY_TYPES } from "@mga/core/launches";

import { requestIdField } from "../../schemas/common";
import { externalUserIdSchema, integrationSlugSchema } from "../../schemas/partner-ids";

/** Spec 2.11, 2.12 and 4.8. Every object is strict: unknown properties (parent_origin, host_policy, source labels, …) are a 400. */
const notEmail = (value: string) => !value.includes("@");

export const loanContextSchema = z
  .strictObject({
    external_loan_id: z
      .string()
      .min(1)
      .max(128)
      .refine(notEmail, "must not be an email address")
      .regex(/^[A-Za-z0-9._:-]+$/, "may contain only letters, digits and . _ : -"),
    program: z.enum(LOAN_PROGRAMS).optional(),
    purpose: z.enum(LOAN_PURPOSES).optional(),
    occupancy: z.enum(OCCUPANCIES).optional(),
    property_type: z.enum(PROPERTY_TYPES).optional(),
    property_state: z
      .string()
      .regex(/^[A-Z]{2}$/, "must be a two-letter state code")
      .optional(),
    units: z.int().min(1).max(4).optional(),
    milestone: z.enum(MILESTONES).optional(),
    application_date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")
      .optional(),
  })
  .meta({ id: "LoanContext" });

export const createEmbedSessionInput = z.strictObject({
  integration: integrationSlugSchema,
  user: z.strictObject({ external_user_id: externalUserIdSchema.refine(notEmail, "must not be an email address") }),
  loan_context: loanContextSchema,
});

export const embedSessionSchema = z
  .strictObject({
    request_id: requestIdField,
    launch_id: z.string().min(1),
    launch_url: z.url(),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: "EmbedSession" });
