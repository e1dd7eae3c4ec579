import { putTeam as put } from "@mga/core/partners/teams";

import { partnerProcedure } from "../../../trpc";
import { putTeamInput, teamResponseSchema } from "./teams.types";
import { teamToWire } from "./to-wire";

export const putTeam = partnerProcedure
  .meta({
    openapi: {
      method: "PUT",
      path: "/v1/integrations/{integration}/teams/{external_team_id}",
      tags: ["partner teams"],
      summary: "Create or rename a team",
      description:
        "201 when the team is created (active, user_count 0), 200 when it existed (its name is updated; its status is unchanged).",
      protect: true,
    },
    scope: "embed:teams:write",
    successStatuses: {
      200: "The team existed: its name is updated, its status unchanged",
      201: "The team, created (active, user_count 0)",
    },
    errors: [409],
  })
  .input(putTeamInput)
  .output(teamResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const { team, created } = await put(ctx.db, ctx.integration, input.external_team_id, { name: input.name });
    ctx.response.status = created ? 201 : 200;
    return { request_id: ctx.requestId, team: teamToWire(team) };
  });
