// @mga/core/tenants: what the rest of the service may use of this area; everything else is internal.
export { configureTenant, getTenantConfig, validateTenantConfig } from "./tenant-config";
export {
  secondarySourceSchema,
  sidebarModeSchema,
  tenantConfigSchema,
  tenantConfigShape,
  tenantSourceSchema,
} from "./tenant-config.schema";
export { tenantConfiguredAt } from "./tenant-configured-at";
