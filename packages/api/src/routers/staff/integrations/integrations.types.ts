import { z } from "zod";

import { INTEGRATION_STATUSES } from "@mga/core/partners/integrations";
import { MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE } from "@mga/core/rate-limits";

import { countSchema, staffId } from "../staff.types";

/** Partner integrations, their public aliases and which keys each alias is granted to. */
const slug = z.string().trim().min(1).max(100);

/** integrationToOperatorView's shape (the CLI prints the same). */
export const integrationViewSchema = z.strictObject({
  id: z.string(),
  organization_id: z.string(),
  slug: z.string(),
  status: z.enum(INTEGRATION_STATUSES),
  /** null: the service default. */
  chat_answers_per_user_per_minute: z.int().nullable(),
  aliases: z.array(z.strictObject({ slug: z.string(), granted_key_ids: z.array(z.string()) })),
});

export const aliasRuleOutput = z.string();

export const listIntegrationsInput = z.strictObject({ organization_id: staffId });
export const listIntegrationsOutput = z.array(integrationViewSchema.extend({ users: countSchema }));

export const integrationIdInput = z.strictObject({ id: staffId });

export const createIntegrationInput = z.strictObject({
  organization_id: staffId,
  slug,
  aliases: z.array(slug).max(20).default([]),
});
export const setIntegrationStatusInput = z.strictObject({ id: staffId, status: z.enum(INTEGRATION_STATUSES) });
export const aliasInput = z.strictObject({ id: staffId, alias: slug });
export const setAliasGrantInput = aliasInput.extend({ key_id: staffId, granted: z.boolean() });

/** What the console shows beside the per-user chat limit: the default in force when none is set, and the most it takes. */
export const chatAnswerLimitsOutput = z.strictObject({
  default_per_user_per_minute: z.int(),
  max_per_user_per_minute: z.int(),
});
export const setChatAnswerLimitInput = z.strictObject({
  id: staffId,
  chat_answers_per_user_per_minute: z.int().min(1).max(MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE).nullable(),
});
