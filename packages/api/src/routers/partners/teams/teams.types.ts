import { z } from "zod";

import { TEAM_STATUSES } from "@mga/core/partners/teams";

import { nameSchema, refuseEmptyBody, requestIdField } from "../../../schemas/common";
import { cursorSchema, externalTeamIdSchema, integrationSlugSchema } from "../../../schemas/partner-ids";

/** Spec 2.8 and 4.9. */
export const teamNameSchema = nameSchema;
export const teamStatusSchema = z.enum(TEAM_STATUSES);

export const teamSchema = z
  .strictObject({
    id: z.string().min(1),
    integration: integrationSlugSchema,
    external_team_id: externalTeamIdSchema,
    name: teamNameSchema,
    status: teamStatusSchema,
    user_count: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "PartnerTeam" });

export const teamResponseSchema = z
  .strictObject({ request_id: requestIdField, team: teamSchema })
  .meta({ id: "PartnerTeamResponse" });

export const listTeamsInput = z.strictObject({
  integration: integrationSlugSchema,
  status: teamStatusSchema.optional(),
  limit: z.int().min(1).max(100).default(100),
  cursor: cursorSchema.optional(),
});
export const listTeamsOutput = z
  .strictObject({ request_id: requestIdField, teams: z.array(teamSchema), next_cursor: z.string().nullable() })
  .meta({ id: "ListPartnerTeamsResponse" });

export const teamPathInput = z.strictObject({
  integration: integrationSlugSchema,
  external_team_id: externalTeamIdSchema,
});

/** PUT body (spec: "not shown"): the team's name; status changes go through PATCH. */
export const putTeamInput = teamPathInput.extend({ name: teamNameSchema });

export const patchTeamInput = refuseEmptyBody(
  teamPathInput.extend({ name: teamNameSchema.optional(), status: teamStatusSchema.optional() }),
  "send name, status or both",
);
