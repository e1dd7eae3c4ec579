import { z } from "zod";

import { IMPORT_ROW_OUTCOMES, IMPORT_STATUSES, MAX_IMPORT_USERS } from "@mga/core/partners/imports";
import { emailAddressSchema } from "@mga/core/partners/users";

import { nameSchema, requestIdField } from "../../../schemas/common";
import { externalTeamIdSchema, externalUserIdSchema, integrationSlugSchema } from "../../../schemas/partner-ids";

/** Bulk import (spec 2.13, 3.8, 4.10; record shape "not shown": defined here). */
export const importUserSchema = z
  .strictObject({
    external_user_id: externalUserIdSchema,
    email: emailAddressSchema,
    name: nameSchema.optional(),
    team_external_id: externalTeamIdSchema.nullable().optional(),
  })
  .meta({ id: "ImportUser" });

export const createImportInput = z.strictObject({
  integration: integrationSlugSchema,
  users: z.array(importUserSchema).min(1).max(MAX_IMPORT_USERS),
});

const count = z.int().min(0).max(MAX_IMPORT_USERS);
export const importJobSchema = z
  .strictObject({
    job_id: z.string().min(1),
    integration: integrationSlugSchema,
    status: z.enum(IMPORT_STATUSES),
    total: count,
    summary: z.strictObject({ processed: count, created: count, existing: count, pending: count, failed: count }),
    results: z.array(
      z.strictObject({
        external_user_id: externalUserIdSchema,
        outcome: z.enum(IMPORT_ROW_OUTCOMES),
        error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
      }),
    ),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "ImportJob" });

export const importResponseSchema = z
  .strictObject({ request_id: requestIdField, import: importJobSchema })
  .meta({ id: "ImportJobResponse" });
export const getImportInput = z.strictObject({ integration: integrationSlugSchema, job_id: z.string().min(1).max(64) });
