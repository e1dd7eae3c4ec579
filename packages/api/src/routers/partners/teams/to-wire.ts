import type { TeamRecord } from "@mga/core/partners/teams";

export function teamToWire(team: TeamRecord) {
  return {
    id: team.id,
    integration: team.integration,
    external_team_id: team.externalTeamId,
    name: team.name,
    status: team.status,
    user_count: team.userCount,
    created_at: team.createdAt.toISOString(),
    updated_at: team.updatedAt.toISOString(),
  };
}
