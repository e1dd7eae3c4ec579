import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { resolveTenantConfig } from "../tenants/tenant-config";
import type { TenantConfig } from "../tenants/tenant-config.schema";
import { hashApiKey, isWellFormedApiKey } from "./key-secret";
import type { KeyStatus } from "./key-status";
import type { Scope } from "./scopes";

/** The caller behind a request, as every authenticated route sees it. */
export interface AuthenticatedKey {
  id: string;
  organizationId: string;
  name: string;
  scopes: Scope[];
  lastFour: string;
  rateLimitPerMinute: number | null;
  tenant: TenantConfig;
}

/**
 * The hot path: one round trip that finds the key, its organization and tenant
 * configuration, and (at most once a minute per key) records `last_used_at`. The request is
 * counted against the key's rate limit afterwards, by takeRateLimitToken (from leased tokens).
 */
const AUTHENTICATE_SQL = `
WITH k AS (
  SELECT k.id, k.organization_id, k.name, k.scopes, k.last_four, k.status, k.rate_limit_per_minute, k.last_used_at,
         o.name AS organization_name, t.config AS tenant_config
  FROM api_keys k
  JOIN organizations o ON o.id = k.organization_id
  LEFT JOIN tenant_configurations t ON t.organization_id = k.organization_id
  WHERE k.secret_hash = $1
),
touch AS (
  UPDATE api_keys SET last_used_at = now()
  WHERE id IN (SELECT id FROM k WHERE status = 'active' AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds'))
  RETURNING id
)
SELECT k.* FROM k`;

interface Row {
  id: string;
  organization_id: string;
  name: string;
  scopes: string[];
  last_four: string;
  status: KeyStatus;
  rate_limit_per_minute: number | null;
  organization_name: string;
  tenant_config: unknown;
}

export async function authenticateApiKey(db: Database, presented: string | undefined): Promise<AuthenticatedKey> {
  if (!presented) {
    throw new AppError("unauthorized", "missing API key: send Authorization: Bearer <key> or X-API-Key: <key>");
  }
  if (!isWellFormedApiKey(presented)) throw new AppError("unauthorized", "invalid API key");
  const { rows } = await db.sql.query<Row>(AUTHENTICATE_SQL, [hashApiKey(presented)]);
  const row = rows[0];
  if (!row) throw new AppError("unauthorized", "invalid API key");
  if (row.status !== "active") throw new AppError("unauthorized", "this API key has been revoked");
  return toAuthenticatedKey(row);
}

function toAuthenticatedKey(row: Row): AuthenticatedKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    scopes: row.scopes as Scope[],
    lastFour: row.last_four,
    rateLimitPerMinute: row.rate_limit_per_minute,
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
  const { rows } = await db.sql.query<Row>(
    `SELECT k.id, k.organization_id, k.name, k.scopes, k.last_four, k.status, k.rate_limit_per_minute,
            o.name AS organization_name, t.config AS tenant_config
     FROM api_keys k JOIN organizations o ON o.id = k.organization_id
     LEFT JOIN tenant_configurations t ON t.organization_id = k.organization_id
     WHERE k.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row || row.status !== "active") throw new AppError("unauthorized", "the key behind this launch is no longer active");
  return toAuthenticatedKey(row);
}
