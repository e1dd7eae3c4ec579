import type { ApiKeySummary } from "@mga/core/keys";
import type { LaunchBindingRecord } from "@mga/core/launches";
import type { IntegrationRecord } from "@mga/core/partners/integrations";

/**
 * How operators see keys and integrations, in the CLI's JSON and the admin console alike:
 * a key with its last four characters and last use, never the key or its hash.
 */
export function keyToOperatorView(key: ApiKeySummary, binding?: LaunchBindingRecord) {
  return {
    id: key.id,
    organization_id: key.organizationId,
    name: key.name,
    status: key.status,
    scopes: key.scopes,
    last_four: key.lastFour,
    rate_limit_per_minute: key.rateLimitPerMinute,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
    rolled_from_key_id: key.rolledFromKeyId,
    launch_binding: binding
      ? { integration: binding.publicName, canonical_integration: binding.integration, enabled: binding.enabled }
      : null,
  };
}

export function integrationToOperatorView(integration: IntegrationRecord) {
  return {
    id: integration.id,
    organization_id: integration.organizationId,
    slug: integration.slug,
    status: integration.status,
    chat_answers_per_user_per_minute: integration.chatAnswersPerUserPerMinute,
    aliases: integration.aliases.map((alias) => ({ slug: alias.slug, granted_key_ids: alias.grantedKeyIds })),
  };
}
