import { patchTeam as patch } from "@mga/core/partners/teams";

import { partnerProcedure } from "../../../trpc";
import { patchTeamInput, teamResponseSchema } from "./teams.types";
import { teamToWire } from "./to-wire";

export const patchTeam = partnerProcedure
  .meta({
    openapi: {
      method: "PATCH",
      path: "/v1/integrations/{integration}/teams/{external_team_id}",
      tags: ["partner teams"],
      summary: "Rename, archive or reactivate a team",
      description: "Archiving a team that still has users (current or pending) is 409 team_in_use.",
      protect: true,
    },
    scope: "embed:teams:write",
    errors: [404, 409],
  })
  .input(patchTeamInput)
  .output(teamResponseSchema)
  .mutation(async ({ ctx, input }) => ({
    request_id: ctx.requestId,
    team: teamToWire(
      await patch(ctx.db, ctx.integration, input.external_team_id, { name: input.name, status: input.status }),
    ),
  }));
