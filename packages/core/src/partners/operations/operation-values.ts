/** The closed value sets of lifecycle_operations' columns (spec 2.10), each enforced by a CHECK constraint. */
export const OPERATION_TYPES = ["profile_change", "deletion", "reprovision"] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

export const OPERATION_STATUSES = [
  "queued",
  "verification_pending",
  "processing",
  "completed",
  "failed",
  "expired",
  "cancelled",
] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/** authorized_by: what lets a change alter a site account the partner's mapping does not solely own (null: the request alone). */
export const OPERATION_AUTHORITIES = ["verification", "staff_override"] as const;
export type OperationAuthority = (typeof OPERATION_AUTHORITIES)[number];
