// @mga/core/orgs: what the rest of the service may use of this area; everything else is internal.
export { countOrganizationHoldings } from "./organization-counts";
export { createOrganization, deleteOrganization, getOrganization, listOrganizations, renameOrganization } from "./organizations";
