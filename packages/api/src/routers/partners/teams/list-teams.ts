import { listTeams as list } from "@mga/core/partners/teams";

import { partnerProcedure } from "../../../trpc";
import { listTeamsInput, listTeamsOutput } from "./teams.types";
import { teamToWire } from "./to-wire";

export const listTeams = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/integrations/{integration}/teams",
      tags: ["partner teams"],
      summary: "List teams",
      protect: true,
    },
    scope: "embed:teams:read",
  })
  .input(listTeamsInput)
  .output(listTeamsOutput)
  .query(async ({ ctx, input }) => {
    const page = await list(ctx.db, ctx.integration, {
      status: input.status,
      limit: input.limit,
      cursor: input.cursor,
    });
    return { request_id: ctx.requestId, teams: page.teams.map(teamToWire), next_cursor: page.nextCursor };
  });
