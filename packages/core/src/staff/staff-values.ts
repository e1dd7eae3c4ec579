/**
 * A staff member's role (columns staff_accounts.role and staff_invites.role, enforced by CHECK
 * constraints). Least privilege first: the console offers them in this order.
 */
export const STAFF_ROLES = ["viewer", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Not stored: `disabled` is a set staff_accounts.disabled_at. */
export const STAFF_STATUSES = ["active", "disabled"] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];
