import { router } from "../../../trpc";
import { getStaffPartnerImport } from "./get-partner-import";
import { listStaffPartnerImports } from "./list-partner-imports";

/** Bulk imports with their per-row results (read only: partners start them through the API). */
export const staffPartnerImportsRouter = router({ list: listStaffPartnerImports, get: getStaffPartnerImport });
