import { router } from "../../../trpc";
import { configureStaffTenant } from "./configure-tenant";
import { createStaffOrganization } from "./create-organization";
import { deleteStaffOrganization } from "./delete-organization";
import { getStaffOrganization } from "./get-organization";
import { listStaffOrganizations } from "./list-organizations";
import { renameStaffOrganization } from "./rename-organization";

/** Organizations and their tenant configuration (spec 2.3/2.4). */
export const staffOrganizationsRouter = router({
  list: listStaffOrganizations,
  get: getStaffOrganization,
  create: createStaffOrganization,
  rename: renameStaffOrganization,
  delete: deleteStaffOrganization,
  configureTenant: configureStaffTenant,
});
