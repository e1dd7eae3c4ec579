// @mga/core/keys: what the rest of the service may use of this area; everything else is internal.
export {
  MAX_RATE_LIMIT_PER_MINUTE,
  createApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  setApiKeyRateLimit,
  updateApiKey,
} from "./api-keys";
export { EXPIRING_SOON_DAYS, MAX_KEY_LIFETIME_DAYS, MAX_ROLL_OVERLAP_SECONDS, isExpired } from "./key-expiry";
export { listKeysExpiringWithin } from "./expiring-keys";
export { keyRollAuditDetails, keyUpdateAuditDetails } from "./key-audit";
export { rollApiKey } from "./roll-api-key";
export type { RolledKey } from "./roll-api-key";
export type { ApiKeySummary } from "./api-keys";
export { authenticateApiKey, requireScope } from "./authenticate-api-key";
export type { AuthenticatedKey } from "./authenticate-api-key";
export { flushKeyUsage } from "./key-usage";
export { startKeyCache } from "./start-key-cache";
export type { RunningKeyCache } from "./start-key-cache";
export type { KeyCache } from "./key-cache";
export type { KeyChange } from "./key-changes";
export { hashApiKey } from "./key-secret";
export { KEY_STATUSES } from "./key-status";
export { KEY_SEPARATION_ADVICE, SCOPE_DESCRIPTIONS, SOLO_SCOPES, keySeparationWarnings } from "./scope-advice";
export { SCOPES } from "./scopes";
export type { Scope } from "./scopes";
