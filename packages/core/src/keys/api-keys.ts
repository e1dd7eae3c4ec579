import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { getOrganization } from "../orgs/organizations";
import { generateApiKey } from "./key-secret";
import type { KeyStatus } from "./key-status";
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
}

export const MAX_RATE_LIMIT_PER_MINUTE = 100_000;

export async function createApiKey(
  db: Database,
  input: { organizationId: string; name: string; scopes: string | readonly string[]; rateLimitPerMinute?: number | null },
): Promise<{ key: ApiKeySummary; plaintext: string }> {
  await getOrganization(db, input.organizationId);
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) throw new AppError("invalid_request", "name: must be 1-200 characters");
  const scopes = parseScopes(input.scopes);
  const rateLimit = input.rateLimitPerMinute ?? null;
  assertRateLimit(rateLimit);
  const secret = generateApiKey();
  const row = await db.prisma.apiKey.create({
    data: {
      id: newId("key"),
      organizationId: input.organizationId,
      name,
      secretHash: secret.secretHash,
      lastFour: secret.lastFour,
      scopes,
      rateLimitPerMinute: rateLimit,
    },
  });
  return { key: toSummary(row), plaintext: secret.plaintext };
}

export async function revokeApiKey(db: Database, id: string): Promise<ApiKeySummary> {
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!existing) throw new AppError("not_found", `key ${id} not found`);
  if (existing.status === "revoked") return toSummary(existing);
  const row = await db.prisma.apiKey.update({ where: { id }, data: { status: "revoked", revokedAt: new Date() } });
  return toSummary(row);
}

/** Changes a key's rate limit (null: the service default); takes effect on its next request. */
export async function setApiKeyRateLimit(db: Database, id: string, rateLimitPerMinute: number | null): Promise<ApiKeySummary> {
  assertRateLimit(rateLimitPerMinute);
  const existing = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!existing) throw new AppError("not_found", `key ${id} not found`);
  if (existing.status !== "active") throw new AppError("invalid_request", `key ${id} is revoked`);
  return toSummary(await db.prisma.apiKey.update({ where: { id }, data: { rateLimitPerMinute } }));
}

export async function getApiKey(db: Database, id: string): Promise<ApiKeySummary> {
  const row = await db.prisma.apiKey.findUnique({ where: { id } });
  if (!row) throw new AppError("not_found", `key ${id} not found`);
  return toSummary(row);
}

function assertRateLimit(rateLimit: number | null): void {
  if (rateLimit !== null && (!Number.isInteger(rateLimit) || rateLimit < 1 || rateLimit > MAX_RATE_LIMIT_PER_MINUTE)) {
    throw new AppError("invalid_request", `rate_limit: must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE} requests per minute`);
  }
}

export async function listApiKeys(db: Database, organizationId: string): Promise<ApiKeySummary[]> {
  await getOrganization(db, organizationId);
  const rows = await db.prisma.apiKey.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" } });
  return rows.map(toSummary);
}

function toSummary(row: {
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
}): ApiKeySummary {
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
  };
}
