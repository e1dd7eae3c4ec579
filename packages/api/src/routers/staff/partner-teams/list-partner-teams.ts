import { listTeams } from "@mga/core/partners/teams";

import { staffProcedure } from "../../../trpc";
import { teamToWire } from "../../partners/teams/to-wire";
import { integrationForStaff } from "../partner-directory";
import { listPartnerTeamsInput, listPartnerTeamsOutput } from "./partner-teams.types";

/** Searchable by external id or name, in any case. */
export const listStaffPartnerTeams = staffProcedure
  .input(listPartnerTeamsInput)
  .output(listPartnerTeamsOutput)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const page = await listTeams(ctx.db, integration, {
      status: input.status,
      q: input.q,
      limit: input.limit,
      cursor: input.cursor,
      withTotal: true,
    });
    return {
      teams: page.teams.map(teamToWire),
      next_cursor: page.nextCursor,
      previous_cursor: page.previousCursor,
      total: page.total ?? 0,
    };
  });
