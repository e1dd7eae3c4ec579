// @mga/core/partners/users: what the rest of the service may use of this area; everything else is internal.
export { existingExternalUserIds } from "./existing-users";
export { getPartnerUser } from "./get-user";
export { getPartnerUserContact } from "./get-user-contact";
export { countPartnerUsers, listPartnerUsers } from "./list-users";
export type { UserContact } from "./list-users";
export { launchEligibility } from "./partner-user";
export type { OperationSummary, PartnerUserRecord } from "./partner-user";
export {
  BLOCKING_REASONS,
  EXPERIENCE_TYPES,
  IDENTITY_ORIGINS,
  MAPPING_STATUSES,
  PROVISIONING_STATUSES,
  SYNC_STATUSES,
  USER_SORTS,
  USER_STATUSES,
} from "./partner-user-values";
export type { UserSort, UserStatus } from "./partner-user-values";
export { provisionPartnerUser } from "./provision-user";
export { setPartnerUserStatus } from "./set-user-status";
export { findSiteAccountForEmail } from "./site-account-for-email";
export { accountLockKey, reconcileAllSiteAccountLocks } from "./site-account-ownership";
// The one email rule (shared/email.ts), for the API's schemas.
export { EMAIL_MAX_LENGTH, emailAddressSchema } from "../../shared/email";
