import { listImports } from "@mga/core/partners/imports";

import { staffProcedure } from "../../../trpc";
import { integrationForStaff } from "../partner-directory";
import { listPartnerImportsInput, listPartnerImportsOutput } from "./partner-imports.types";

export const listStaffPartnerImports = staffProcedure
  .input(listPartnerImportsInput)
  .output(listPartnerImportsOutput)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const page = await listImports(ctx.db, integration, { limit: input.limit, cursor: input.cursor, withTotal: true });
    return {
      imports: page.imports.map((job) => ({
        job_id: job.id,
        status: job.status,
        total: job.total,
        processed: job.processed,
        failed: job.failed,
        created_at: job.createdAt.toISOString(),
        completed_at: job.completedAt?.toISOString() ?? null,
      })),
      next_cursor: page.nextCursor,
      previous_cursor: page.previousCursor,
      total: page.total ?? 0,
    };
  });
