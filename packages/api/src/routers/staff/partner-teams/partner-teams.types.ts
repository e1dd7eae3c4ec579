import { z } from "zod";

import { teamSchema, teamStatusSchema } from "../../partners/teams/teams.types";
import { countSchema, staffCursor, staffId, staffLimit } from "../staff.types";

export const listPartnerTeamsInput = z.strictObject({
  integration_id: staffId,
  status: teamStatusSchema.optional(),
  q: z.string().trim().max(128).optional(),
  limit: staffLimit(50),
  cursor: staffCursor,
});
export const listPartnerTeamsOutput = z.strictObject({
  teams: z.array(teamSchema),
  next_cursor: z.string().nullable(),
  previous_cursor: z.string().nullable(),
  total: countSchema,
});
