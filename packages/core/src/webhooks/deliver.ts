import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import type { JobQueue } from "../jobs/job-queue";
import { enqueueDelivery, type DeliveryJob } from "./dispatch-events";
import { openEndpointSecret, signatureHeader } from "./endpoint-secrets";
import { safePost, type SafePostResult } from "./safe-post";
import { DISABLE_AFTER_MS, RETRY_DELAYS_MS, withJitter, type WebhookOptions } from "./webhook-options";

/** How much of a receiver's answer is read before the connection is dropped. */
export const MAX_RESPONSE_BYTES = 4096;

interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  payload: string;
  attempts: number;
  window_started_at: Date;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  endpoint_status: string;
}

/**
 * One attempt of one delivery (the `webhook-delivery` queue's handler). The attempt first takes
 * the delivery's lease in one UPDATE (pending, due, not leased, and no earlier delivery of the
 * same user to the same endpoint still pending): two instances, or two jobs for one delivery,
 * never attempt it at once. The lease outlives the attempt's time limit, and a crash leaves it
 * to expire: the queue's retry of the job (pg-boss expiry) then finds the delivery due again,
 * which makes delivery at least once. The outcome, the next attempt's job and the endpoint's
 * health are written in one transaction.
 */
export async function deliverWebhook(
  db: Database,
  queue: JobQueue,
  options: WebhookOptions,
  job: DeliveryJob,
): Promise<void> {
  const leaseMs = options.leaseMs ?? 15_000;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const claimed = await db.sql.query<ClaimedDelivery>(
    `UPDATE webhook_deliveries d SET locked_until = clock_timestamp() + make_interval(secs => $2::double precision / 1000), attempts = d.attempts + 1,
       last_attempt_at = now(), updated_at = now()
     FROM webhook_endpoints e
     WHERE d.id = $1 AND e.id = d.endpoint_id AND e.organization_id = d.organization_id AND d.status = 'pending' AND d.next_attempt_at <= clock_timestamp()
       AND (d.locked_until IS NULL OR d.locked_until <= clock_timestamp())
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE d.ordering_key IS NOT NULL AND p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key
                         AND p.status = 'pending' AND (p.event_created_at, p.event_id) < (d.event_created_at, d.event_id))
     RETURNING d.id, d.endpoint_id, d.event_id, d.payload, d.attempts, d.window_started_at, e.url, e.secret_sealed,
       CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_sealed END AS previous_secret_sealed, e.status AS endpoint_status`,
    [job.deliveryId, leaseMs],
  );
  const delivery = claimed.rows[0];
  if (!delivery) return deferIfWaiting(db, queue, job.deliveryId);
  if (delivery.endpoint_status !== "enabled") {
    await db.sql.query(
      "UPDATE webhook_deliveries SET status = 'failed', locked_until = NULL, next_attempt_at = NULL, last_error = $2, updated_at = now() WHERE id = $1",
      [delivery.id, "not sent: the endpoint is disabled"],
    );
    return;
  }
  const secrets = [delivery.secret_sealed, delivery.previous_secret_sealed]
    .filter((sealed): sealed is string => sealed !== null)
    .map((sealed) => openEndpointSecret(db.secrets, sealed));
  const timestamp = new Date();
  const result = await safePost(
    delivery.url,
    delivery.payload,
    {
      "webhook-id": delivery.event_id,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": signatureHeader(secrets, delivery.event_id, timestamp, delivery.payload),
      "User-Agent": "mga-webhooks/1",
    },
    { timeoutMs, allowPrivateAddresses: options.allowPrivateAddresses, maxResponseBytes: MAX_RESPONSE_BYTES },
  );
  await recordOutcome(db, queue, options, delivery, result);
}

/**
 * Not attempted now: leased by another attempt (a job of its own comes back when the lease ends,
 * in case that attempt's process died), or waiting behind an earlier delivery of the same user
 * (retried shortly). A delivery finished or not yet due needs nothing: its own job exists.
 */
async function deferIfWaiting(db: Database, queue: JobQueue, deliveryId: string): Promise<void> {
  const { rows } = await db.sql.query<{ locked_until: Date | null; due: boolean; status: string; ahead: Date | null }>(
    `SELECT d.locked_until, d.next_attempt_at <= clock_timestamp() AS due, d.status,
       (SELECT min(p.next_attempt_at) FROM webhook_deliveries p WHERE d.ordering_key IS NOT NULL AND p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key
          AND p.status = 'pending' AND (p.event_created_at, p.event_id) < (d.event_created_at, d.event_id)) AS ahead
     FROM webhook_deliveries d WHERE d.id = $1`,
    [deliveryId],
  );
  const row = rows[0];
  if (!row || row.status !== "pending" || !row.due) return;
  const now = Date.now();
  const lockedUntil = row.locked_until && row.locked_until.getTime() > now ? row.locked_until.getTime() + 500 : 0;
  // Behind an earlier delivery: back after its next attempt (its success also wakes this one at once, see wakeNext).
  const behind = row.ahead ? row.ahead.getTime() + 1000 : 0;
  await enqueueDelivery(queue, db, deliveryId, new Date(Math.max(lockedUntil, behind, now + 1000)));
}

/** A delivery that finished lets the next one of the same user to the same endpoint go now. */
async function wakeNext(tx: Database, queue: JobQueue, deliveryId: string): Promise<void> {
  const { rows } = await tx.sql.query<{ id: string }>(
    `SELECT n.id FROM webhook_deliveries d JOIN webhook_deliveries n ON n.endpoint_id = d.endpoint_id AND n.ordering_key = d.ordering_key
     WHERE d.id = $1 AND n.status = 'pending' AND (n.event_created_at, n.event_id) > (d.event_created_at, d.event_id)
     ORDER BY n.event_created_at, n.event_id LIMIT 1`,
    [deliveryId],
  );
  if (rows[0]) await enqueueDelivery(queue, tx, rows[0].id);
}

async function recordOutcome(
  db: Database,
  queue: JobQueue,
  options: WebhookOptions,
  delivery: ClaimedDelivery,
  result: SafePostResult,
): Promise<void> {
  await withTransaction(db, async (tx) => {
    if (result.ok) {
      await tx.sql.query(
        `UPDATE webhook_deliveries SET status = 'succeeded', locked_until = NULL, next_attempt_at = NULL, last_status_code = $2, last_latency_ms = $3,
           last_error = NULL, updated_at = now() WHERE id = $1`,
        [delivery.id, result.status, result.latencyMs],
      );
      await tx.sql.query(
        "UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL",
        [delivery.endpoint_id],
      );
      await wakeNext(tx, queue, delivery.id);
      return;
    }
    const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const delay = delays[delivery.attempts - 1];
    const last = delay === undefined;
    const nextAttemptAt = last ? null : new Date(Date.now() + withJitter(delay));
    await tx.sql.query(
      `UPDATE webhook_deliveries SET status = $2, locked_until = NULL, next_attempt_at = $3, last_status_code = $4, last_latency_ms = $5, last_error = $6, updated_at = now()
       WHERE id = $1`,
      [delivery.id, last ? "failed" : "pending", nextAttemptAt, result.status, result.latencyMs, result.error],
    );
    if (nextAttemptAt) await enqueueDelivery(queue, tx, delivery.id, nextAttemptAt);
    else await wakeNext(tx, queue, delivery.id);
    // Failing without a success for DISABLE_AFTER_MS disables the endpoint, with the reason for staff.
    const disabled = await tx.sql.query<{ failing_since: Date }>(
      `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, now()),
         status = CASE WHEN failing_since <= now() - make_interval(secs => $2::double precision / 1000) THEN 'disabled' ELSE status END,
         disabled_reason = CASE WHEN failing_since <= now() - make_interval(secs => $2::double precision / 1000) AND status = 'enabled'
           THEN 'disabled by the service: every delivery failed since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '; last error: ' || $3
           ELSE disabled_reason END,
         updated_at = now()
       WHERE id = $1 RETURNING failing_since`,
      [delivery.endpoint_id, options.disableAfterMs ?? DISABLE_AFTER_MS, result.error],
    );
    if (disabled.rows[0])
      options.log?.("webhook delivery failed", {
        delivery_id: delivery.id,
        endpoint_id: delivery.endpoint_id,
        attempts: delivery.attempts,
        error: result.error,
      });
  });
}
