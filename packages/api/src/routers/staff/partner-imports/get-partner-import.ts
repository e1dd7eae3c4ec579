import { getImport } from "@mga/core/partners/imports";
import { staffProcedure } from "../../../trpc";
import { importToWire } from "../../partners/imports/to-wire";
import { integrationForStaff } from "../partner-directory";
import { getPartnerImportInput, getPartnerImportOutput } from "./partner-imports.types";

export const getStaffPartnerImport = staffProcedure
  .input(getPartnerImportInput)
  .output(getPartnerImportOutput)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    return importToWire(await getImport(ctx.db, integration, input.job_id));
  });
