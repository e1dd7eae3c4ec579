import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import type { JobQueue } from "../jobs/job-queue";
import { decodeCursor, keysetPage } from "../paging/cursor";
import { enqueueDelivery } from "./dispatch-events";
import { TEST_EVENT_TYPE, type WebhookDeliveryStatus } from "./event-values";

export interface WebhookDeliveryRecord {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  /** When the next attempt is due (pending deliveries only). */
  nextAttemptAt: Date | null;
  createdAt: Date;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

/** An endpoint's deliveries, newest first (the console's deliveries table). */
export async function listWebhookDeliveries(
  db: Database,
  input: {
    organizationId: string;
    endpointId: string;
    status?: WebhookDeliveryStatus | undefined;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ deliveries: WebhookDeliveryRecord[]; nextCursor: string | null }> {
  const filters = { endpoint: input.endpointId, status: input.status ?? null };
  const position = decodeCursor(db.secrets, input.cursor, filters);
  const { rows } = await db.sql.query<DeliveryRow>(
    `SELECT id, endpoint_id, event_id, event_type, status, attempts, last_status_code, last_latency_ms, last_error, last_attempt_at,
       CASE WHEN status = 'pending' THEN next_attempt_at END AS next_attempt_at, created_at
     FROM webhook_deliveries WHERE organization_id = $1 AND endpoint_id = $2 AND ($3::text IS NULL OR status = $3)
       AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::text))
     ORDER BY created_at DESC, id DESC LIMIT $6`,
    [
      input.organizationId,
      input.endpointId,
      filters.status,
      position?.createdAt ?? null,
      position?.id ?? "",
      input.limit + 1,
    ],
  );
  const page = keysetPage(db.secrets, rows, input.limit, filters);
  return {
    deliveries: page.rows.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      eventType: row.event_type,
      status: row.status,
      attempts: row.attempts,
      lastStatusCode: row.last_status_code,
      lastLatencyMs: row.last_latency_ms,
      lastError: row.last_error,
      lastAttemptAt: row.last_attempt_at,
      nextAttemptAt: row.next_attempt_at,
      createdAt: row.created_at,
    })),
    nextCursor: page.nextCursor,
  };
}

/**
 * Sends a delivery again now (the console's "Redeliver"): the same body and `webhook-id` (the
 * receiver's idempotency key), a new retry window. A delivery being attempted right now is
 * refused rather than attempted twice at once.
 */
export async function redeliverWebhook(
  db: Database,
  queue: JobQueue,
  input: { organizationId: string; deliveryId: string },
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const { rows } = await tx.sql.query<{ busy: boolean; endpoint_status: string }>(
      `SELECT d.locked_until > clock_timestamp() AS busy, e.status AS endpoint_status FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.id = $1 AND d.organization_id = $2 FOR UPDATE OF d`,
      [input.deliveryId, input.organizationId],
    );
    const row = rows[0];
    if (!row) throw new AppError("not_found", `webhook delivery ${input.deliveryId} not found`);
    if (row.busy)
      throw new AppError("invalid_request", "this delivery is being attempted right now; try again in a few seconds", {
        status: 409,
      });
    if (row.endpoint_status !== "enabled")
      throw new AppError("invalid_request", "the endpoint is disabled; enable it first", { status: 409 });
    await tx.sql.query(
      "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), window_started_at = now(), updated_at = now() WHERE id = $1",
      [input.deliveryId],
    );
    await enqueueDelivery(queue, tx, input.deliveryId);
  });
}

/** "Send test event": a `webhook.test` event to this endpoint only (never recorded, never in GET /v1/events). */
export async function sendTestEvent(
  db: Database,
  queue: JobQueue,
  input: { organizationId: string; endpointId: string },
): Promise<string> {
  return withTransaction(db, async (tx) => {
    const { rows } = await tx.sql.query<{ slug: string | null; status: string }>(
      "SELECT i.slug, e.status FROM webhook_endpoints e LEFT JOIN integrations i ON i.id = e.integration_id WHERE e.id = $1 AND e.organization_id = $2",
      [input.endpointId, input.organizationId],
    );
    const endpoint = rows[0];
    if (!endpoint) throw new AppError("not_found", `webhook endpoint ${input.endpointId} not found`);
    if (endpoint.status !== "enabled")
      throw new AppError("invalid_request", "the endpoint is disabled; enable it first", { status: 409 });
    const eventId = newId("evt");
    const createdAt = new Date();
    const payload = JSON.stringify({
      id: eventId,
      type: TEST_EVENT_TYPE,
      created_at: createdAt.toISOString(),
      integration: endpoint.slug,
      data: { endpoint_id: input.endpointId },
    });
    const id = newId("whd");
    await tx.sql.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, organization_id, event_id, event_type, event_created_at, payload, status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', now(), now(), now())`,
      [id, input.endpointId, input.organizationId, eventId, TEST_EVENT_TYPE, createdAt, payload],
    );
    await enqueueDelivery(queue, tx, id);
    return id;
  });
}
