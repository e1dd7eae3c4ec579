// @mga/core/partners/imports: what the rest of the service may use of this area; everything else is internal.
export { IMPORT_ROW_OUTCOMES, IMPORT_STATUSES } from "./import-values";
export { MAX_IMPORT_USERS, createImport, getImport, listImports } from "./imports";
export type { ImportRecord } from "./imports";
