import type { ApiKeySummary } from "./api-keys";
import type { RolledKey } from "./roll-api-key";

/**
 * The audit details of key edits and rolls, one shape whoever made them (the console's
 * procedures, the CLI): what changed, from what to what; never a secret.
 */
export function keyUpdateAuditDetails(
  before: ApiKeySummary,
  after: ApiKeySummary,
  changed: { name?: unknown; scopes?: unknown },
): Record<string, unknown> {
  return {
    ...(changed.name !== undefined ? { name: { from: before.name, to: after.name } } : {}),
    ...(changed.scopes !== undefined ? { scopes: { from: before.scopes, to: after.scopes } } : {}),
  };
}

export function keyRollAuditDetails(rolled: RolledKey): Record<string, unknown> {
  return {
    successor_id: rolled.key.id,
    successor_last_four: rolled.key.lastFour,
    old_key_expires_at: rolled.previous.expiresAt?.toISOString() ?? null,
    ...(rolled.key.expiresAt ? { successor_expires_at: rolled.key.expiresAt.toISOString() } : {}),
  };
}
