// @mga/core/staff: what the rest of the service may use of this area; everything else is internal.
export { authenticateStaff, createStaff, signInStaff, signOutStaff } from "./staff";
export type { StaffMember } from "./staff";
export {
  STAFF_INVITE_HOURS,
  acceptStaffInvite,
  describeStaffInvite,
  inviteStaff,
  listPendingInvites,
  revokeStaffInvite,
} from "./staff-invites";
export type { StaffInvite } from "./staff-invites";
export { listStaff, setStaffRole, setStaffStatus } from "./staff-members";
export type { StaffAccountView } from "./staff-members";
export { STAFF_ROLES, STAFF_STATUSES } from "./staff-values";
export type { StaffRole } from "./staff-values";
