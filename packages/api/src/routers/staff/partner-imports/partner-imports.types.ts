import { z } from "zod";

import { importJobSchema } from "../../partners/imports/imports.types";
import { countSchema, staffCursor, staffId, staffLimit } from "../staff.types";

export const listPartnerImportsInput = z.strictObject({
  integration_id: staffId,
  limit: staffLimit(25),
  cursor: staffCursor,
});

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
export const listPartnerImportsOutput = z.strictObject({
  imports: z.array(importSummarySchema),
  next_cursor: z.string().nullable(),
  previous_cursor: z.string().nullable(),
  total: countSchema,
});

export const getPartnerImportInput = z.strictObject({ integration_id: staffId, job_id: staffId });
/** The partner's view of the job, each row also saying whether its user exists (only those are linked). */
const importRowSchema = importJobSchema.shape.results.element;
export const getPartnerImportOutput = importJobSchema.extend({
  results: z.array(importRowSchema.extend({ user_exists: z.boolean() })),
});

/** A CSV file's text (1,000 users of long ids, emails and names fit). */
export const startPartnerImportInput = z.strictObject({ integration_id: staffId, csv: z.string().max(2_000_000) });
export const startPartnerImportOutput = z.strictObject({
  job_id: z.string().nullable(),
  row_errors: z.array(z.strictObject({ line: z.int().min(1), message: z.string() })),
});
