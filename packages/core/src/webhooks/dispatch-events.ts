import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";
import { newId } from "../ids/new-id";
import { QUEUES, type JobQueue } from "../jobs/job-queue";
import { EVENT_SELECT, toStoredEvent } from "./list-events";
import type { WebhookOptions } from "./webhook-options";

const BATCH = 100;

export interface DeliveryJob {
  deliveryId: string;
}

/** Enqueues one attempt of a delivery; with a `tx`, only if that transaction commits. */
export async function enqueueDelivery(
  queue: JobQueue,
  db: Database,
  deliveryId: string,
  startAfter?: Date,
): Promise<void> {
  // A key of its own per enqueue: the delivery's lease (deliver.ts), not the queue, keeps attempts apart.
  await queue.enqueue(
    db,
    QUEUES.webhooks,
    { deliveryId } satisfies DeliveryJob,
    `${deliveryId}:${newId("whd")}`,
    startAfter ? { startAfter } : {},
  );
}

/**
 * The fan-out (the outbox's relay): events not yet dispatched become one delivery per matching
 * enabled endpoint of their organization (and of their integration, for an endpoint limited to
 * one), each with its body rendered once and an attempt enqueued, in the same transaction that
 * marks the events dispatched. One instance at a time (a transaction-scoped advisory lock), so
 * deliveries are made in event order. Returns how many events it dispatched.
 */
export async function dispatchEvents(
  db: Database,
  queue: JobQueue,
  options: Pick<WebhookOptions, "renderEvent" | "log">,
): Promise<number> {
  return withTransaction(db, async (tx) => {
    const lock = await tx.sql.query<{ ok: boolean }>(
      "SELECT pg_try_advisory_xact_lock(hashtextextended('mga:webhook-dispatch', 0)) AS ok",
    );
    if (!lock.rows[0]?.ok) return 0;
    const { rows } = await tx.sql.query<
      Parameters<typeof toStoredEvent>[0] & {
        organization_id: string;
        integration_id: string | null;
        ordering_key: string | null;
      }
    >(
      `${EVENT_SELECT.replace("SELECT e.id", "SELECT e.organization_id, e.integration_id, e.ordering_key, e.id")}
       WHERE e.dispatched_at IS NULL ORDER BY e.created_at, e.id LIMIT ${BATCH}`,
    );
    for (const row of rows) {
      const endpoints = await tx.sql.query<{ id: string }>(
        `SELECT id FROM webhook_endpoints WHERE organization_id = $1 AND status = 'enabled' AND $2 = ANY(event_types)
           AND (integration_id IS NULL OR integration_id = $3) ORDER BY id`,
        [row.organization_id, row.type, row.integration_id],
      );
      if (endpoints.rows.length === 0) continue;
      let payload: string;
      try {
        payload = JSON.stringify(options.renderEvent(toStoredEvent(row)));
      } catch (error) {
        // One event the renderer refuses must not hold back every later one: it is left undelivered, and logged.
        options.log?.("webhook event not rendered; not delivered", { event_id: row.id, error: String(error) });
        continue;
      }
      for (const endpoint of endpoints.rows) {
        const id = newId("whd");
        await tx.sql.query(
          `INSERT INTO webhook_deliveries (id, endpoint_id, organization_id, event_id, event_type, event_created_at, ordering_key, payload, status, next_attempt_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', now(), now(), now())`,
          [id, endpoint.id, row.organization_id, row.id, row.type, row.created_at, row.ordering_key, payload],
        );
        await enqueueDelivery(queue, tx, id);
      }
    }
    if (rows.length)
      await tx.sql.query("UPDATE events SET dispatched_at = now() WHERE id = ANY($1::text[])", [
        rows.map((row) => row.id),
      ]);
    return rows.length;
  });
}

/** Runs the fan-out every `dispatchIntervalMs` (1 s) on this instance; the returned function stops it. */
export function startEventDispatch(db: Database, queue: JobQueue, options: WebhookOptions): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = (async () => {
      try {
        while (!stopped && (await dispatchEvents(db, queue, options)) === BATCH);
      } catch (error) {
        options.log?.("webhook fan-out failed; retried at the next tick", { error: String(error) });
      }
      if (!stopped) timer = setTimeout(tick, options.dispatchIntervalMs ?? 1000);
    })();
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
