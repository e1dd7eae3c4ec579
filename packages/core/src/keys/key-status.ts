/** An API key's status (column api_keys.status, enforced by a CHECK constraint). */
export const KEY_STATUSES = ["active", "revoked"] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];
