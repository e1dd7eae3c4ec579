import { router } from "../../../trpc";
import { getStaffPartnerImport } from "./get-partner-import";
import { listStaffPartnerImports } from "./list-partner-imports";
import { startPartnerImport } from "./start-partner-import";

/** Bulk imports with their per-row results; admins start them from a CSV file, partners through the API. */
export const staffPartnerImportsRouter = router({
  list: listStaffPartnerImports,
  get: getStaffPartnerImport,
  start: startPartnerImport,
});
