import { createImport } from "@mga/core/partners/imports";

import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { integrationForStaff } from "../partner-directory";
import { csvImportRows } from "./csv-import-rows";
import { startPartnerImportInput, startPartnerImportOutput } from "./partner-imports.types";

/**
 * An import started by staff from a CSV file: the partner API's bulk import (the same core
 * function, queue and per-row outcomes), audited. A file with any refused line starts
 * nothing: every such line comes back with its reason, so the file is fixed once.
 */
export const startPartnerImport = adminProcedure
  .input(startPartnerImportInput)
  .output(startPartnerImportOutput)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const { users, errors } = csvImportRows(input.csv);
    if (errors.length) return { job_id: null, row_errors: errors };
    const job = await auditedStaffChange(
      ctx,
      (tx) => createImport({ db: tx, queue: ctx.queue }, integration, users),
      (created) => ({
        action: "partner_import.create",
        target: created.id,
        details: { integration_id: integration.id, users: users.length },
      }),
    );
    return { job_id: job.id, row_errors: [] };
  });
