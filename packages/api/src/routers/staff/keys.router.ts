import {
  type ApiKeySummary,
  bindLaunchKey,
  createApiKey,
  type Database,
  getApiKey,
  KEY_SEPARATION_ADVICE,
  keySeparationWarnings,
  type LaunchBindingRecord,
  listApiKeys,
  listLaunchBindings,
  MAX_RATE_LIMIT_PER_MINUTE,
  revokeApiKey,
  SCOPE_DESCRIPTIONS,
  SCOPES,
  SOLO_SCOPES,
  setApiKeyRateLimit,
  unbindLaunchKey,
} from "@mga/core";
import { z } from "zod";
import { keyToOperatorView } from "../../operator/operator-views";
import { adminProcedure, router, staffProcedure } from "../../trpc";
import { auditStaffAction } from "./audit-action";
import { staffId } from "./staff.types";

/** The key's launch binding, so every procedure returning a key shows it as keys.get does. */
async function bindingOf(ctx: { db: Database }, key: ApiKeySummary): Promise<LaunchBindingRecord | undefined> {
  return (await listLaunchBindings(ctx.db, key.organizationId)).get(key.id);
}

const rateLimit = z.int().min(1).max(MAX_RATE_LIMIT_PER_MINUTE).nullable();

export const staffKeysRouter = router({
  /**
   * The scope picker's content: every scope, what it allows, the spec's separation advice, and
   * the scopes best kept alone (the console warns as they are combined, before creating).
   */
  scopes: staffProcedure.query(() => ({
    scopes: SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
    advice: [...KEY_SEPARATION_ADVICE],
    solo_scopes: SOLO_SCOPES.map(({ scope, warning }) => ({ scope, warning })),
    max_rate_limit_per_minute: MAX_RATE_LIMIT_PER_MINUTE,
  })),

  list: staffProcedure.input(z.strictObject({ organization_id: staffId })).query(async ({ ctx, input }) => {
    const [keys, bindings] = await Promise.all([listApiKeys(ctx.db, input.organization_id), listLaunchBindings(ctx.db, input.organization_id)]);
    return keys.map((key) => keyToOperatorView(key, bindings.get(key.id)));
  }),

  get: staffProcedure.input(z.strictObject({ id: staffId })).query(async ({ ctx, input }) => {
    const key = await getApiKey(ctx.db, input.id);
    return keyToOperatorView(key, await bindingOf(ctx, key));
  }),

  /** The plaintext is in this response only; afterwards only its hash exists. */
  create: adminProcedure
    .input(z.strictObject({ organization_id: staffId, name: z.string().trim().min(1).max(200), scopes: z.array(z.enum(SCOPES)).min(1), rate_limit_per_minute: rateLimit.default(null) }))
    .mutation(async ({ ctx, input }) => {
      const { key, plaintext } = await createApiKey(ctx.db, {
        organizationId: input.organization_id,
        name: input.name,
        scopes: input.scopes,
        rateLimitPerMinute: input.rate_limit_per_minute,
      });
      await auditStaffAction(ctx, "key.create", key.id, { name: key.name, scopes: key.scopes, organization_id: key.organizationId, last_four: key.lastFour });
      return { key: keyToOperatorView(key), plaintext, warnings: keySeparationWarnings(key.scopes) };
    }),

  revoke: adminProcedure.input(z.strictObject({ id: staffId })).mutation(async ({ ctx, input }) => {
    const key = await revokeApiKey(ctx.db, input.id);
    await auditStaffAction(ctx, "key.revoke", key.id, { name: key.name, last_four: key.lastFour });
    return keyToOperatorView(key, await bindingOf(ctx, key));
  }),

  setRateLimit: adminProcedure.input(z.strictObject({ id: staffId, rate_limit_per_minute: rateLimit })).mutation(async ({ ctx, input }) => {
    const key = await setApiKeyRateLimit(ctx.db, input.id, input.rate_limit_per_minute);
    await auditStaffAction(ctx, "key.rate_limit", key.id, { rate_limit_per_minute: key.rateLimitPerMinute });
    return keyToOperatorView(key, await bindingOf(ctx, key));
  }),

  /** Lets a launch key issue launches for one public name (spec section 5 item 6). */
  bindLaunch: adminProcedure.input(z.strictObject({ id: staffId, integration: z.string().trim().min(1).max(100) })).mutation(async ({ ctx, input }) => {
    const binding = await bindLaunchKey(ctx.db, { apiKeyId: input.id, publicName: input.integration });
    await auditStaffAction(ctx, "key.launch_bind", input.id, { integration: binding.publicName });
    return { integration: binding.publicName, canonical_integration: binding.integration, enabled: binding.enabled };
  }),

  unbindLaunch: adminProcedure.input(z.strictObject({ id: staffId })).mutation(async ({ ctx, input }) => {
    await unbindLaunchKey(ctx.db, input.id);
    await auditStaffAction(ctx, "key.launch_unbind", input.id);
    return { enabled: false };
  }),
});
