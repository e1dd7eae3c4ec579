import { z } from "zod";

import {
  EXPIRING_SOON_DAYS,
  KEY_STATUSES,
  MAX_KEY_LIFETIME_DAYS,
  MAX_RATE_LIMIT_PER_MINUTE,
  MAX_ROLL_OVERLAP_SECONDS,
  SCOPES,
} from "@mga/core/keys";

import { staffId } from "../staff.types";

/** API keys as operators see them: last four characters and last use, never the key or its hash. */
const scopeSchema = z.enum(SCOPES);
const rateLimit = z.int().min(1).max(MAX_RATE_LIMIT_PER_MINUTE).nullable();
/** A new key's expiry; its bounds (future, at most MAX_KEY_LIFETIME_DAYS ahead) are core's (keys/key-expiry.ts). */
const expiresAt = z.iso.datetime({ offset: true }).nullable().default(null);

/** A launch key's binding to a public name (spec section 5 item 6). */
export const launchBindingSchema = z.strictObject({
  integration: z.string(),
  canonical_integration: z.string(),
  enabled: z.boolean(),
});

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
  /** Past or future; a key past it is refused (401) though its status stays active. */
  expires_at: z.iso.datetime().nullable(),
  /** The key this one replaced by a roll. */
  rolled_from_key_id: z.string().nullable(),
  launch_binding: launchBindingSchema.nullable(),
});

export const keyScopesOutput = z.strictObject({
  scopes: z.array(z.strictObject({ scope: scopeSchema, description: z.string() })),
  advice: z.array(z.string()),
  solo_scopes: z.array(z.strictObject({ scope: scopeSchema, warning: z.string() })),
  max_rate_limit_per_minute: z.int(),
  max_key_lifetime_days: z.int(),
  max_roll_overlap_seconds: z.int(),
});

export const listKeysInput = z.strictObject({ organization_id: staffId });
export const listKeysOutput = z.array(keyViewSchema);

export const keyIdInput = z.strictObject({ id: staffId });

export const createKeyInput = z.strictObject({
  organization_id: staffId,
  name: z.string().trim().min(1).max(200),
  scopes: z.array(scopeSchema).min(1),
  rate_limit_per_minute: rateLimit.default(null),
  expires_at: expiresAt,
});
/** The plaintext is in this response only. */
export const createKeyOutput = z.strictObject({
  key: keyViewSchema,
  plaintext: z.string(),
  warnings: z.array(z.string()),
});

export const setRateLimitInput = z.strictObject({ id: staffId, rate_limit_per_minute: rateLimit });

export const bindLaunchInput = z.strictObject({ id: staffId, integration: z.string().trim().min(1).max(100) });

export const unbindLaunchOutput = z.strictObject({ enabled: z.literal(false) });

/** A rename, new scopes, or both (at least one). */
export const updateKeyInput = z
  .strictObject({
    id: staffId,
    name: z.string().trim().min(1).max(200).optional(),
    scopes: z.array(scopeSchema).min(1).optional(),
  })
  .refine((input) => input.name !== undefined || input.scopes !== undefined, {
    message: "give name, scopes or both",
    path: ["name"],
  });
export const updateKeyOutput = z.strictObject({ key: keyViewSchema, warnings: z.array(z.string()) });

/** The old key keeps working for `old_key_expires_in_seconds` (0: it stops now; at most seven days). */
export const rollKeyInput = z.strictObject({
  id: staffId,
  old_key_expires_in_seconds: z.int().min(0).max(MAX_ROLL_OVERLAP_SECONDS),
  expires_at: expiresAt,
});
/** The successor's plaintext is in this response only. */
export const rollKeyOutput = z.strictObject({ key: keyViewSchema, plaintext: z.string(), previous: keyViewSchema });

export const expiringKeysInput = z.strictObject({
  organization_id: staffId.optional(),
  within_days: z.int().min(1).max(MAX_KEY_LIFETIME_DAYS).default(EXPIRING_SOON_DAYS),
});
export const expiringKeysOutput = z.array(keyViewSchema);
