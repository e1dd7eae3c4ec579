// @mga/core/sources: what the rest of the service may use of this area; everything else is internal.
export { AGENCY_SOURCE_TYPES, type AgencySourceType, agencySourceTypeSchema } from "./agency-sources";
export { buildSourceCatalog } from "./source-catalog";
