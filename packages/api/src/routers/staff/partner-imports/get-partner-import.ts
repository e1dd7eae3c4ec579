import { getImport } from "@mga/core/partners/imports";
import { existingExternalUserIds } from "@mga/core/partners/users";

import { staffProcedure } from "../../../trpc";
import { importToWire } from "../../partners/imports/to-wire";
import { integrationForStaff } from "../partner-directory";
import { getPartnerImportInput, getPartnerImportOutput } from "./partner-imports.types";

export const getStaffPartnerImport = staffProcedure
  .input(getPartnerImportInput)
  .output(getPartnerImportOutput)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const job = importToWire(await getImport(ctx.db, integration, input.job_id));
    const existing = await existingExternalUserIds(
      ctx.db,
      integration.id,
      job.results.map((row) => row.external_user_id),
    );
    return { ...job, results: job.results.map((row) => ({ ...row, user_exists: existing.has(row.external_user_id) })) };
  });
