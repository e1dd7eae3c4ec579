import { z } from "zod";
import { importJobSchema } from "../../partners/imports/imports.types";
import { countSchema, staffCursor, staffId, staffLimit } from "../staff.types";

export const listPartnerImportsInput = z.strictObject({ integration_id: staffId, limit: staffLimit(25), cursor: staffCursor });

/** An import's progress, as the console's list shows it (the whole job with its rows: get). */
export const importSummarySchema = z.strictObject({
  job_id: z.string(),
  status: importJobSchema.shape.status,
  total: countSchema,
  processed: countSchema,
  failed: countSchema,
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
});
export const listPartnerImportsOutput = z.strictObject({ imports: z.array(importSummarySchema), next_cursor: z.string().nullable(), previous_cursor: z.string().nullable(), total: countSchema });

export const getPartnerImportInput = z.strictObject({ integration_id: staffId, job_id: staffId });
export const getPartnerImportOutput = importJobSchema;
