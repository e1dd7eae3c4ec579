import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { resolveTenantConfig } from "../tenants/tenant-config";
import type { TenantConfig } from "../tenants/tenant-config.schema";
import type { KeyLookup } from "./key-cache";
import { expiredKeyMessage, isExpired } from "./key-expiry";
import { hasApiKeyShape, hashApiKey, hasValidChecksum } from "./key-secret";
import type { KeyStatus } from "./key-status";
import { recordKeyUse } from "./key-usage";
import type { Scope } from "./scopes";

/** The caller behind a request, as every authenticated route sees it (its rate limit is counted apart: rate-limits/). */
export interface AuthenticatedKey {
  id: string;
  organizationId: string;
  name: string;
  scopes: Scope[];
  lastFour: string;
  rateLimitPerMinute: number | null;
  /** Checked against the clock on every request, cached or not (an expiry needs no notification to take effect). */
  expiresAt: Date | null;
  tenant: TenantConfig;
}

/** A key with its organization and tenant configuration, in one query (the WHERE is the caller's). */
const KEY_RECORD_SQL = `
SELECT k.id, k.organization_id, k.name, k.scopes, k.last_four, k.status, k.rate_limit_per_minute, k.expires_at,
       o.name AS organization_name, t.config AS tenant_config
FROM api_keys k
JOIN organizations o ON o.id = k.organization_id
LEFT JOIN tenant_configurations t ON t.organization_id = k.organization_id`;

interface Row {
  id: string;
  organization_id: string;
  name: string;
  scopes: string[];
  last_four: string;
  status: KeyStatus;
  rate_limit_per_minute: number | null;
  expires_at: Date | null;
  organization_name: string;
  tenant_config: unknown;
}

const UNKNOWN_KEY = "invalid API key";
const REVOKED_KEY = "this API key has been revoked";

/**
 * The hot path: the key behind a request, from this instance's key cache when it runs one
 * (no database round trip), else one query. Its use is recorded in memory (key-usage.ts);
 * its rate limit is counted by the caller.
 */
export async function authenticateApiKey(db: Database, presented: string | undefined): Promise<AuthenticatedKey> {
  if (!presented) {
    throw new AppError("unauthorized", "missing API key: send Authorization: Bearer <key> or X-API-Key: <key>");
  }
  if (!hasApiKeyShape(presented)) throw new AppError("unauthorized", UNKNOWN_KEY);
  const hash = hashApiKey(presented);
  // Only an instance that runs a cache (startKeyCache) has one; the CLI and most tests read the database.
  const cache = db.instance.keyCache;
  // The checksum refuses made-up keys before any lookup. A key the cache holds needs none: its
  // hash matched a stored key's, so the string is that key (one SHA-256 per request, not two).
  if (!cache?.holds(hash) && !hasValidChecksum(presented)) throw new AppError("unauthorized", UNKNOWN_KEY);
  const found = cache ? await cache.lookUp(hash, () => readKey(db, hash)) : await readKey(db, hash);
  if ("refusal" in found) throw new AppError("unauthorized", found.refusal);
  if (found.key.expiresAt && isExpired(found.key.expiresAt))
    throw new AppError("unauthorized", expiredKeyMessage(found.key.expiresAt));
  recordKeyUse(db, found.key.id);
  return found.key;
}

async function readKey(db: Database, hash: string): Promise<KeyLookup> {
  const { rows } = await db.sql.query<Row>(`${KEY_RECORD_SQL} WHERE k.secret_hash = $1`, [hash]);
  const row = rows[0];
  return !row
    ? { refusal: UNKNOWN_KEY }
    : row.status !== "active"
      ? { refusal: REVOKED_KEY }
      : { key: toAuthenticatedKey(row) };
}

function toAuthenticatedKey(row: Row): AuthenticatedKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    scopes: row.scopes as Scope[],
    lastFour: row.last_four,
    rateLimitPerMinute: row.rate_limit_per_minute,
    expiresAt: row.expires_at,
    tenant: resolveTenantConfig(row.tenant_config, row.organization_name),
  };
}

export function requireScope(key: AuthenticatedKey, scope: Scope): void {
  if (!key.scopes.includes(scope)) throw new AppError("forbidden", `this API key lacks the ${scope} scope`);
}

/**
 * The key behind a launch, for the hosted chat (which never sees the key itself): the same
 * record as authenticateApiKey, found by id (the chat token is the credential there).
 */
export async function getKeyById(db: Database, id: string): Promise<AuthenticatedKey> {
  const { rows } = await db.sql.query<Row>(`${KEY_RECORD_SQL} WHERE k.id = $1`, [id]);
  const row = rows[0];
  if (!row || row.status !== "active" || isExpired(row.expires_at))
    throw new AppError("unauthorized", "the key behind this launch is no longer active");
  return toAuthenticatedKey(row);
}
