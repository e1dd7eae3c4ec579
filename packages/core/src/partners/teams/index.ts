// @mga/core/partners/teams: what the rest of the service may use of this area; everything else is internal.
export { TEAM_STATUSES } from "./team-status";
export { getTeam, listTeams, patchTeam, putTeam } from "./teams";
export type { TeamRecord } from "./teams";
