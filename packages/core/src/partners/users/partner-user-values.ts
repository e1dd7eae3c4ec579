/**
 * The closed value sets of a partner user's columns (spec 2.9), each enforced in the
 * database by a CHECK constraint on partner_users. The order is the spec's (and the API's).
 */
export const USER_STATUSES = ["active", "disabled", "deleted"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const PROVISIONING_STATUSES = ["pending", "active", "failed"] as const;
export type ProvisioningStatus = (typeof PROVISIONING_STATUSES)[number];

/** profile_sync_status and wordpress_sync_status. */
export const SYNC_STATUSES = ["applied", "pending", "failed"] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

export const MAPPING_STATUSES = ["pending", "mapped", "failed", "unmapped"] as const;
export type MappingStatus = (typeof MAPPING_STATUSES)[number];

/** Null until the user's site account is known. */
export const IDENTITY_ORIGINS = ["existing_mg", "partner_created"] as const;
export type IdentityOrigin = (typeof IDENTITY_ORIGINS)[number];

export const EXPERIENCE_TYPES = ["mg", "white_label"] as const;
export type ExperienceType = (typeof EXPERIENCE_TYPES)[number];

/** Spec 2.9 `launch_eligibility.blocking_reasons`, in the spec's order (computed, not stored). */
export const BLOCKING_REASONS = [
  "disabled",
  "deleted",
  "provisioning_pending",
  "provisioning_failed",
  "profile_sync_pending",
  "profile_sync_failed",
  "wordpress_sync_pending",
  "wordpress_sync_failed",
  "wordpress_unlinked",
  "chat_identity_unlinked",
] as const;
export type BlockingReason = (typeof BLOCKING_REASONS)[number];

/** The orders of the staff console's user list (list-users.ts); /v1 lists by creation only. Not stored. */
export const USER_SORTS = ["created", "external_id", "name", "status"] as const;
export type UserSort = (typeof USER_SORTS)[number];
