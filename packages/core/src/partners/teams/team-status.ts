/** A partner team's status (column partner_teams.status, enforced by a CHECK constraint). */
export const TEAM_STATUSES = ["active", "archived"] as const;
export type TeamStatus = (typeof TEAM_STATUSES)[number];
