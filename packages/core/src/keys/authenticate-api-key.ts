import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { resolveTenantConfig } from "../tenants/tenant-config";
import type { TenantConfig } from "../tenants/tenant-config.schema";
import { hashApiKey, isWellFormedApiKey } from "./key-secret";
import type { KeyStatus } from "./key-status";
import type { Scope } from "./scopes";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, RATE_LIMIT_WINDOW_SECONDS, type RateLimitState } from "../rate-limits/rate-limit";

/** The caller behind a request, as every authenticated route sees it. */
export interface AuthenticatedKey {
  id: string;
  organizationId: string;
  name: string;
  scopes: Scope[];
  lastFour: string;
  rateLimitPerMinute: number | null;
  tenant: TenantConfig;
  /** This request counted against the key's current rate-limit window. */
  rateLimit: RateLimitState;
}

/**
 * The hot path: one round trip that finds the key, its organization and tenant
 * configuration, counts the request in the key's rate-limit window (in PostgreSQL, so all
 * instances share it), and (at most once a minute per key) records `last_used_at`.
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
hit AS (
  INSERT INTO rate_limit_counters (api_key_id, window_start, count)
  SELECT id, date_trunc('minute', now()), 1 FROM k WHERE status = 'active'
  ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
  RETURNING count, window_start
),
touch AS (
  UPDATE api_keys SET last_used_at = now()
  WHERE id IN (SELECT id FROM k WHERE status = 'active' AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds'))
  RETURNING id
)
SELECT k.*, hit.count AS window_count,
       ceil(extract(epoch FROM (hit.window_start + interval '${RATE_LIMIT_WINDOW_SECONDS} seconds' - now())))::int AS reset_seconds
FROM k LEFT JOIN hit ON true`;

interface Row {
  window_count: number | null;
  reset_seconds: number | null;
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
    rateLimit: {
      limit: row.rate_limit_per_minute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
      count: row.window_count ?? 0,
      resetSeconds: Math.max(1, row.reset_seconds ?? RATE_LIMIT_WINDOW_SECONDS),
    },
  };
}

export function requireScope(key: AuthenticatedKey, scope: Scope): void {
  if (!key.scopes.includes(scope)) throw new AppError("forbidden", `this API key lacks the ${scope} scope`);
}

/**
 * The key behind a launch, for the hosted chat (which never sees the key itself): the same
 * record as authenticateApiKey, found by id; no rate-limit count (the chat token is the
 * credential there).
 */
export async function getKeyById(db: Database, id: string): Promise<AuthenticatedKey> {
  const { rows } = await db.sql.query<Row>(
    `SELECT k.id, k.organization_id, k.name, k.scopes, k.last_four, k.status, k.rate_limit_per_minute,
            o.name AS organization_name, t.config AS tenant_config, NULL::int AS window_count, NULL::int AS reset_seconds
     FROM api_keys k JOIN organizations o ON o.id = k.organization_id
     LEFT JOIN tenant_configurations t ON t.organization_id = k.organization_id
     WHERE k.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row || row.status !== "active") throw new AppError("unauthorized", "the key behind this launch is no longer active");
  return toAuthenticatedKey(row);
}
