// @mga/core/partners/integrations: what the rest of the service may use of this area; everything else is internal.
export { INTEGRATION_STATUSES } from "./integration-status";
export { countIntegrationUsers } from "./integration-user-counts";
export {
  createIntegration,
  getIntegration,
  getIntegrationById,
  listIntegrations,
  resolveIntegration,
  setAliasGrant,
  updateIntegration,
} from "./integrations";
export type { IntegrationRecord, ResolvedIntegration } from "./integrations";
