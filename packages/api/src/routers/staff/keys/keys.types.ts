import { KEY_STATUSES, MAX_RATE_LIMIT_PER_MINUTE, SCOPES } from "@mga/core/keys";
import { z } from "zod";
import { staffId } from "../staff.types";

/** API keys as operators see them: last four characters and last use, never the key or its hash. */
const scopeSchema = z.enum(SCOPES);
const rateLimit = z.int().min(1).max(MAX_RATE_LIMIT_PER_MINUTE).nullable();

/** A launch key's binding to a public name (spec section 5 item 6). */
export const launchBindingSchema = z.strictObject({ integration: z.string(), canonical_integration: z.string(), enabled: z.boolean() });

/** keyToOperatorView's shape (the CLI prints the same). */
export const keyViewSchema = z.strictObject({
  id: z.string(),
  organization_id: z.string(),
  name: z.string(),
  status: z.enum(KEY_STATUSES),
  scopes: z.array(scopeSchema),
  last_four: z.string(),
  rate_limit_per_minute: z.int().nullable(),
  created_at: z.iso.datetime(),
  revoked_at: z.iso.datetime().nullable(),
  last_used_at: z.iso.datetime().nullable(),
  launch_binding: launchBindingSchema.nullable(),
});

export const keyScopesOutput = z.strictObject({
  scopes: z.array(z.strictObject({ scope: scopeSchema, description: z.string() })),
  advice: z.array(z.string()),
  solo_scopes: z.array(z.strictObject({ scope: scopeSchema, warning: z.string() })),
  max_rate_limit_per_minute: z.int(),
});

export const listKeysInput = z.strictObject({ organization_id: staffId });
export const listKeysOutput = z.array(keyViewSchema);

export const keyIdInput = z.strictObject({ id: staffId });

export const createKeyInput = z.strictObject({
  organization_id: staffId,
  name: z.string().trim().min(1).max(200),
  scopes: z.array(scopeSchema).min(1),
  rate_limit_per_minute: rateLimit.default(null),
});
/** The plaintext is in this response only. */
export const createKeyOutput = z.strictObject({ key: keyViewSchema, plaintext: z.string(), warnings: z.array(z.string()) });

export const setRateLimitInput = z.strictObject({ id: staffId, rate_limit_per_minute: rateLimit });

export const bindLaunchInput = z.strictObject({ id: staffId, integration: z.string().trim().min(1).max(100) });

export const unbindLaunchOutput = z.strictObject({ enabled: z.literal(false) });
