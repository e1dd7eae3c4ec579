// @mga/core/orgs: what the rest of the service may use of this area; everything else is internal.
export { countOrganizationHoldings } from "./organization-counts";
export { deleteOrganization, describeBlockers, findDeletionBlockers } from "./organization-deletion";
export type { DeletionBlockers } from "./organization-deletion";
export { createOrganization, getOrganization, listOrganizations, renameOrganization } from "./organizations";
