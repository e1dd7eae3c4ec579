import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { getOrganization } from "../orgs/organizations";
import { publishKeyChange } from "./key-changes";
import { assertNewKeyExpiry } from "./key-expiry";
import { generateApiKey } from "./key-secret";
import type { KeyStatus } from "./key-status";
import { flushKeyUsage } from "./key-usage";
import { parseScopes, type Scope } from "./scopes";

/** A key as operators see it: never the secret, never its hash. */
export interface ApiKeySummary {
  id: string;
  organizationId: string;
  name: string;
  status: KeyStatus;
  scopes: Scope[];
  lastFour: string;
  rateLimitPerMinute: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** When it stops working (null: never); it may be past, the status stays `active`. */
  expiresAt: Date | null;
  /** The key this one replaced by a roll. */
  rolledFromKeyId: string | null;
}

export const MAX_RATE_LIMIT_PER_MINUTE = 100_000;

export async function createApiKey(
  db: Database,
  input: {
    organizationId: string;
    name: string;
    scopes: string | readonly string[];
    rateLimitPerMinute?: number | null;
    /** Optional: in the future, at most MAX_KEY_LIFETIME_DAYS ahead. */
    expiresAt?: Date | null;
  },
): Promise<{ key: ApiKeySummary; plaintext: string }> {
  await getOrganization(db, input.organizationId);
  const name = assertKeyName(input.name);
  const scopes = parseScopes(input.scopes);
  const rateLimit = input.rateLimitPerMinute ?? null;
  assertRateLimit(rateLimit);
  const expiresAt = input.expiresAt ?? null;
  assertNewKeyExpiry(expiresAt);
  const secret = generateApiKey();
  const row = await withTransaction(db, async (tx) => {
    const { rows } = await tx.sql.query<KeyRow>(
      `INSERT INTO api_keys (id, organization_id, name, secret_hash, last_four, scopes, rate_limit_per_minute, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       RETURNING ${COLUMNS}`,
      [newId("key"), input.organizationId, name, secret.secretHash, secret.lastFour, scopes, rateLimit, expiresAt],
    );
    // No instance may keep refusing the new key as unknown (key cache).
    await publishKeyChange(tx, { kind: "key_created" });
    return rows[0] as KeyRow;
  });
  return { key: toSummary(row), plaintext: secret.plaintext };
}

export async function revokeApiKey(db: Database, id: string): Promise<ApiKeySummary> {
  const existing = await findKey(db, id);
  if (existing.status === "revoked") return toSummary(existing);
  return updateKey(db, id, "status = 'revoked', revoked_at = $2", [new Date()]);
}

/** Changes a key's rate limit (null: the service default); takes effect on its next request. */
export async function setApiKeyRateLimit(
  db: Database,
  id: string,
  rateLimitPerMinute: number | null,
): Promise<ApiKeySummary> {
  assertRateLimit(rateLimitPerMinute);
  const existing = await findKey(db, id);
  if (existing.status !== "active") throw new AppError("invalid_request", `key ${id} is revoked`);
  return updateKey(db, id, "rate_limit_per_minute = $2", [rateLimitPerMinute]);
}

/**
 * Renames a key and/or replaces its scopes; every instance applies the change from the key's
 * next request (the key cache's notification, as for a revocation).
 */
export async function updateApiKey(
  db: Database,
  id: string,
  input: { name?: string; scopes?: string | readonly string[] },
): Promise<ApiKeySummary> {
  const name = input.name === undefined ? undefined : assertKeyName(input.name);
  const scopes = input.scopes === undefined ? undefined : parseScopes(input.scopes);
  const existing = await findKey(db, id);
  if (existing.status !== "active") throw new AppError("invalid_request", `key ${id} is revoked`);
  return updateKey(db, id, "name = COALESCE($2, name), scopes = COALESCE($3, scopes)", [name ?? null, scopes ?? null]);
}

export async function getApiKey(db: Database, id: string): Promise<ApiKeySummary> {
  await flushKeyUsage(db);
  return toSummary(await findKey(db, id));
}

export async function findKey(db: Database, id: string): Promise<KeyRow> {
  const { rows } = await db.sql.query<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]);
  if (!rows[0]) throw new AppError("not_found", `key ${id} not found`);
  return rows[0];
}

/**
 * One UPDATE of a key ($1 is its id), announced to every instance's key cache in the same
 * transaction; a key deleted meanwhile is the same 404 as a missing one.
 */
async function updateKey(db: Database, id: string, set: string, params: unknown[]): Promise<ApiKeySummary> {
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.sql.query<KeyRow>(`UPDATE api_keys SET ${set} WHERE id = $1 RETURNING ${COLUMNS}`, [
      id,
      ...params,
    ]);
    if (!rows[0]) throw new AppError("not_found", `key ${id} not found`);
    await publishKeyChange(tx, { kind: "key", id });
    return toSummary(rows[0]);
  });
}

export function assertKeyName(input: string): string {
  const name = input.trim();
  if (name.length < 1 || name.length > 200)
    throw new AppError("invalid_request", "name: must be 1-200 characters", { field: "name" });
  return name;
}

export function assertRateLimit(rateLimit: number | null): void {
  if (rateLimit !== null && (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > MAX_RATE_LIMIT_PER_MINUTE)) {
    throw new AppError(
      "invalid_request",
      `rate_limit: must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE} requests per minute`,
    );
  }
}

export async function listApiKeys(db: Database, organizationId: string): Promise<ApiKeySummary[]> {
  await getOrganization(db, organizationId);
  await flushKeyUsage(db);
  const { rows } = await db.sql.query<KeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE organization_id = $1 ORDER BY created_at`,
    [organizationId],
  );
  return rows.map(toSummary);
}

/** An `api_keys` row as COLUMNS selects it (never the secret's hash). */
export interface KeyRow {
  id: string;
  organizationId: string;
  name: string;
  status: string;
  scopes: string[];
  lastFour: string;
  rateLimitPerMinute: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  rolledFromKeyId: string | null;
}

export const COLUMNS = `id, organization_id AS "organizationId", name, status, scopes, last_four AS "lastFour", rate_limit_per_minute AS "rateLimitPerMinute",
  created_at AS "createdAt", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt", expires_at AS "expiresAt", rolled_from_key_id AS "rolledFromKeyId"`;

export function toSummary(row: KeyRow): ApiKeySummary {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    status: row.status as KeyStatus,
    scopes: row.scopes as Scope[],
    lastFour: row.lastFour,
    rateLimitPerMinute: row.rateLimitPerMinute,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    rolledFromKeyId: row.rolledFromKeyId,
  };
}
