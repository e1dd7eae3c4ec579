import { z } from "zod";

import { OPERATION_STATUSES, OPERATION_TYPES } from "@mga/core/partners/operations";
import {
  BLOCKING_REASONS,
  emailAddressSchema,
  EXPERIENCE_TYPES,
  IDENTITY_ORIGINS,
  MAPPING_STATUSES,
  PROVISIONING_STATUSES,
  SYNC_STATUSES,
  USER_STATUSES,
  type UserStatus,
} from "@mga/core/partners/users";

import { nameSchema, requestIdField } from "../../../schemas/common";
import {
  cursorSchema,
  externalTeamIdSchema,
  externalUserIdSchema,
  integrationSlugSchema,
  opaqueIdSchema,
  queryBooleanSchema,
} from "../../../schemas/partner-ids";
import { teamNameSchema, teamStatusSchema } from "../teams/teams.types";

/** Spec 2.9, 2.10 and 4.10. Names, emails, passwords and site-account ids are never part of a response. */
const syncStatus = z.enum(SYNC_STATUSES);
const positiveInt = z.int().min(1).max(Number.MAX_SAFE_INTEGER);

export const lifecycleOperationSummarySchema = z
  .strictObject({
    operation_id: opaqueIdSchema,
    type: z.enum(OPERATION_TYPES),
    status: z.enum(OPERATION_STATUSES),
    error_code: opaqueIdSchema.nullable(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "LifecycleOperationSummary" });

export const partnerUserSchema = z
  .strictObject({
    integration: integrationSlugSchema,
    external_user_id: externalUserIdSchema,
    team: z
      .strictObject({
        id: z.string().min(1),
        external_team_id: externalTeamIdSchema,
        name: teamNameSchema,
        status: teamStatusSchema,
      })
      .nullable(),
    assignment_version: positiveInt,
    identity_origin: z.enum(IDENTITY_ORIGINS).nullable(),
    experience_type: z.enum(EXPERIENCE_TYPES),
    mapping_status: z.enum(MAPPING_STATUSES),
    launch_eligibility: z.strictObject({
      can_launch: z.boolean(),
      blocking_reasons: z.array(z.enum(BLOCKING_REASONS)),
    }),
    status: z.enum(USER_STATUSES),
    provisioning_status: z.enum(PROVISIONING_STATUSES),
    wordpress_linked: z.boolean(),
    access_version: positiveInt,
    account_generation: positiveInt,
    profile_version: positiveInt,
    profile_sync_status: syncStatus,
    wordpress_sync_status: syncStatus,
    lifecycle_operation: lifecycleOperationSummarySchema.nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "PartnerUser" });

export const userResponseSchema = z
  .strictObject({ request_id: requestIdField, user: partnerUserSchema })
  .meta({ id: "PartnerUserResponse" });

export const userPathInput = z.strictObject({
  integration: integrationSlugSchema,
  external_user_id: externalUserIdSchema,
});

export const putUserInput = userPathInput.extend({
  email: emailAddressSchema,
  name: nameSchema.optional(),
  team_external_id: externalTeamIdSchema.nullable().optional(),
});

// The spec lists `disabled` first; the OpenAPI document keeps that order.
export const patchUserInput = userPathInput.extend({
  status: z.enum(["disabled", "active"] as const satisfies readonly UserStatus[]),
});

export const listUsersInput = z.strictObject({
  integration: integrationSlugSchema,
  team_external_id: externalTeamIdSchema.optional(),
  external_user_id: externalUserIdSchema.optional(),
  q: z.string().min(1).max(128).optional(),
  unassigned: queryBooleanSchema.optional(),
  status: z.enum(USER_STATUSES).optional(),
  limit: z.int().min(1).max(100).default(25),
  cursor: cursorSchema.optional(),
});

const count = z.int().min(0).max(Number.MAX_SAFE_INTEGER);
export const listUsersOutput = z
  .strictObject({
    request_id: requestIdField,
    users: z.array(partnerUserSchema),
    counts: z.strictObject({
      total: count,
      active: count,
      disabled: count,
      deleted: count,
      pending: count,
      failed: count,
    }),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "ListPartnerUsersResponse" });
