/** An integration's status (column integrations.status, enforced by a CHECK constraint). */
export const INTEGRATION_STATUSES = ["active", "disabled"] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];
