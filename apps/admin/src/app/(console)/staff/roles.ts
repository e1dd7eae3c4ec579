import type { StaffRole } from "@mga/api/closed-values";

/** What each staff role may do, shown where roles are chosen. */
export const ROLE_DESCRIPTIONS = {
  viewer: "reads everything (no live password-setup links); changes nothing.",
  admin:
    "also creates and changes organizations, integrations, keys (including deletion keys), partner users, profile overrides and staff.",
} as const satisfies Record<StaffRole, string>;
