import { getTeam as get } from "@mga/core/partners/teams";

import { partnerProcedure } from "../../../trpc";
import { teamPathInput, teamResponseSchema } from "./teams.types";
import { teamToWire } from "./to-wire";

export const getTeam = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/integrations/{integration}/teams/{external_team_id}",
      tags: ["partner teams"],
      summary: "A team",
      protect: true,
    },
    scope: "embed:teams:read",
    errors: [404],
  })
  .input(teamPathInput)
  .output(teamResponseSchema)
  .query(async ({ ctx, input }) => ({
    request_id: ctx.requestId,
    team: teamToWire(await get(ctx.db, ctx.integration, input.external_team_id)),
  }));
