import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import { addressLiteral, isPublicAddress } from "./address-rules";
import { newEndpointSecret, sealEndpointSecret } from "./endpoint-secrets";
import { EVENT_TYPES, type EventType, type WebhookEndpointStatus } from "./event-values";

/** How long the secret before a roll keeps signing (receivers switch over meanwhile). */
export const SECRET_ROLL_OVERLAP_HOURS = 24;
export const MAX_ENDPOINTS_PER_ORGANIZATION = 16;

export interface WebhookEndpointRecord {
  id: string;
  organizationId: string;
  /** The integration's slug when the endpoint gets only that integration's events. */
  integration: string | null;
  url: string;
  eventTypes: EventType[];
  description: string | null;
  status: WebhookEndpointStatus;
  disabledReason: string | null;
  failingSince: Date | null;
  /** While the secret before the last roll still signs. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface EndpointRow {
  id: string;
  organization_id: string;
  slug: string | null;
  url: string;
  event_types: EventType[];
  description: string | null;
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  failing_since: Date | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT e.id, e.organization_id, i.slug, e.url, e.event_types, e.description, e.status, e.disabled_reason, e.failing_since,
  CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_expires_at END AS previous_secret_expires_at, e.created_at, e.updated_at
  FROM webhook_endpoints e LEFT JOIN integrations i ON i.id = e.integration_id`;

const toRecord = (row: EndpointRow): WebhookEndpointRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  integration: row.slug,
  url: row.url,
  eventTypes: row.event_types,
  description: row.description,
  status: row.status,
  disabledReason: row.disabled_reason,
  failingSince: row.failing_since,
  previousSecretExpiresAt: row.previous_secret_expires_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/**
 * An endpoint's URL: http or https, no credentials in it, at most 2,048 characters. A literal
 * private address is refused here already (the same rule is applied to every resolved address
 * at delivery, where it matters: a name can change what it resolves to).
 */
export function checkEndpointUrl(url: string, options: { allowPrivateAddresses: boolean }): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError("invalid_request", "url: not a valid absolute URL", { field: "url" });
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    throw new AppError("invalid_request", "url: must be an http or https URL", { field: "url" });
  if (parsed.username || parsed.password)
    throw new AppError("invalid_request", "url: must not contain a user name or password", { field: "url" });
  if (url.length > 2048) throw new AppError("invalid_request", "url: at most 2048 characters", { field: "url" });
  const literal = addressLiteral(parsed.hostname);
  if (
    !options.allowPrivateAddresses &&
    (parsed.hostname === "localhost" || (literal !== undefined && !isPublicAddress(literal)))
  ) {
    throw new AppError(
      "invalid_request",
      "url: loopback, private, link-local and reserved addresses are not delivered to",
      { field: "url" },
    );
  }
  return parsed.toString();
}

function checkEventTypes(types: string[]): EventType[] {
  const unknown = types.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length)
    throw new AppError("invalid_request", `event_types: unknown ${unknown.join(", ")}`, { field: "event_types" });
  if (types.length === 0)
    throw new AppError("invalid_request", "event_types: choose at least one event type", { field: "event_types" });
  return [...new Set(types)] as EventType[];
}

async function integrationIdOf(
  db: Database,
  organizationId: string,
  slug: string | null | undefined,
): Promise<string | null> {
  if (!slug) return null;
  const { rows } = await db.sql.query<{ id: string }>(
    "SELECT id FROM integrations WHERE organization_id = $1 AND slug = $2",
    [organizationId, slug],
  );
  if (!rows[0])
    throw new AppError("invalid_request", `integration: ${slug} is not an integration of this organization`, {
      field: "integration",
    });
  return rows[0].id;
}

/** A new endpoint and its signing secret, which is returned here only (shown once). */
export async function createWebhookEndpoint(
  db: Database,
  input: {
    organizationId: string;
    url: string;
    eventTypes: string[];
    integration?: string | null;
    description?: string | null;
    allowPrivateAddresses: boolean;
  },
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const url = checkEndpointUrl(input.url, input);
  const eventTypes = checkEventTypes(input.eventTypes);
  const integrationId = await integrationIdOf(db, input.organizationId, input.integration);
  const org = await db.sql.query<{ endpoints: number }>(
    "SELECT (SELECT count(*)::int FROM webhook_endpoints WHERE organization_id = o.id) AS endpoints FROM organizations o WHERE o.id = $1",
    [input.organizationId],
  );
  if (!org.rows[0]) throw new AppError("not_found", `organization ${input.organizationId} not found`);
  if (org.rows[0].endpoints >= MAX_ENDPOINTS_PER_ORGANIZATION)
    throw new AppError(
      "invalid_request",
      `an organization has at most ${MAX_ENDPOINTS_PER_ORGANIZATION} webhook endpoints`,
    );
  const id = newId("we");
  const secret = newEndpointSecret();
  await db.sql.query(
    `INSERT INTO webhook_endpoints (id, organization_id, integration_id, url, event_types, description, secret_sealed, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'enabled', now(), now())`,
    [
      id,
      input.organizationId,
      integrationId,
      url,
      eventTypes,
      input.description ?? null,
      sealEndpointSecret(db.secrets, secret),
    ],
  );
  return { endpoint: await getWebhookEndpoint(db, input.organizationId, id), secret };
}

export async function getWebhookEndpoint(
  db: Database,
  organizationId: string,
  endpointId: string,
): Promise<WebhookEndpointRecord> {
  const { rows } = await db.sql.query<EndpointRow>(`${SELECT} WHERE e.id = $1 AND e.organization_id = $2`, [
    endpointId,
    organizationId,
  ]);
  if (!rows[0]) throw new AppError("not_found", `webhook endpoint ${endpointId} not found`);
  return toRecord(rows[0]);
}

export async function listWebhookEndpoints(db: Database, organizationId: string): Promise<WebhookEndpointRecord[]> {
  const { rows } = await db.sql.query<EndpointRow>(
    `${SELECT} WHERE e.organization_id = $1 ORDER BY e.created_at, e.id`,
    [organizationId],
  );
  return rows.map(toRecord);
}

/** Changes what was given. Enabling an endpoint again clears why it was disabled and its failing streak. */
export async function updateWebhookEndpoint(
  db: Database,
  input: {
    organizationId: string;
    endpointId: string;
    url?: string;
    eventTypes?: string[];
    description?: string | null;
    status?: WebhookEndpointStatus;
    allowPrivateAddresses: boolean;
  },
): Promise<WebhookEndpointRecord> {
  const url = input.url === undefined ? null : checkEndpointUrl(input.url, input);
  const eventTypes = input.eventTypes === undefined ? null : checkEventTypes(input.eventTypes);
  const { rowCount } = await db.sql.query(
    `UPDATE webhook_endpoints SET url = COALESCE($3, url), event_types = COALESCE($4, event_types),
       description = CASE WHEN $5 THEN $6 ELSE description END, status = COALESCE($7, status),
       disabled_reason = CASE WHEN $7 IS NULL THEN disabled_reason ELSE NULL END,
       failing_since = CASE WHEN $7 = 'enabled' THEN NULL ELSE failing_since END, updated_at = now()
     WHERE id = $1 AND organization_id = $2`,
    [
      input.endpointId,
      input.organizationId,
      url,
      eventTypes,
      input.description !== undefined,
      input.description ?? null,
      input.status ?? null,
    ],
  );
  if (rowCount !== 1) throw new AppError("not_found", `webhook endpoint ${input.endpointId} not found`);
  return getWebhookEndpoint(db, input.organizationId, input.endpointId);
}

/**
 * A new signing secret (returned here only). The one it replaces keeps signing for 24 hours
 * beside it (two signatures in `webhook-signature`), so receivers can switch without a gap.
 */
export async function rollWebhookSecret(
  db: Database,
  organizationId: string,
  endpointId: string,
): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const secret = newEndpointSecret();
  const { rowCount } = await db.sql.query(
    `UPDATE webhook_endpoints SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = now() + make_interval(hours => $4),
       secret_sealed = $3, updated_at = now() WHERE id = $1 AND organization_id = $2`,
    [endpointId, organizationId, sealEndpointSecret(db.secrets, secret), SECRET_ROLL_OVERLAP_HOURS],
  );
  if (rowCount !== 1) throw new AppError("not_found", `webhook endpoint ${endpointId} not found`);
  return { endpoint: await getWebhookEndpoint(db, organizationId, endpointId), secret };
}

/** Removes the endpoint and its deliveries (pending ones are not sent). */
export async function deleteWebhookEndpoint(db: Database, organizationId: string, endpointId: string): Promise<void> {
  const { rowCount } = await db.sql.query("DELETE FROM webhook_endpoints WHERE id = $1 AND organization_id = $2", [
    endpointId,
    organizationId,
  ]);
  if (rowCount !== 1) throw new AppError("not_found", `webhook endpoint ${endpointId} not found`);
}
