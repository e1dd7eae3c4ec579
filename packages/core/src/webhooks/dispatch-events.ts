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

type EventRow = Parameters<typeof toStoredEvent>[0] & {
  organization_id: string;
  integration_id: string | null;
  ordering_key: string | null;
};

interface DeliveryRow {
  id: string;
  endpointId: string;
  event: EventRow;
  payload: string;
}

/** The job of one attempt; a key of its own per enqueue: the delivery's lease (deliver.ts), not the queue, keeps attempts apart. */
const deliveryJob = (deliveryId: string) => ({
  data: { deliveryId } satisfies DeliveryJob,
  singletonKey: `${deliveryId}:${newId("whd")}`,
});

/** Enqueues one attempt of a delivery; with a `tx`, only if that transaction commits. */
export async function enqueueDelivery(
  queue: JobQueue,
  db: Database,
  deliveryId: string,
  startAfter?: Date,
): Promise<void> {
  const job = deliveryJob(deliveryId);
  await queue.enqueue(db, QUEUES.webhooks, job.data, job.singletonKey, startAfter ? { startAfter } : {});
}

/** The event's body as endpoints receive it, rendered once; null (and logged) when the renderer refuses it. */
function renderOnce(row: EventRow, options: Pick<WebhookOptions, "renderEvent" | "log">): string | null {
  try {
    return JSON.stringify(options.renderEvent(toStoredEvent(row)));
  } catch (error) {
    // One event the renderer refuses must not hold back every later one: it is left undelivered, and logged.
    options.log?.("webhook event not rendered; not delivered", { event_id: row.id, error: String(error) });
    return null;
  }
}

/** The deliveries of one fan-out, in one statement. */
async function insertDeliveries(tx: Database, deliveries: DeliveryRow[]): Promise<void> {
  if (deliveries.length === 0) return;
  const column = <T>(pick: (delivery: DeliveryRow) => T) => deliveries.map(pick);
  await tx.sql.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, organization_id, event_id, event_type, event_created_at, ordering_key, payload, status, next_attempt_at, created_at, updated_at)
     SELECT d.id, d.endpoint_id, d.organization_id, d.event_id, d.event_type, d.event_created_at, d.ordering_key, d.payload, 'pending', now(), now(), now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::text[], $8::text[])
         AS d(id, endpoint_id, organization_id, event_id, event_type, event_created_at, ordering_key, payload)`,
    [
      column((d) => d.id),
      column((d) => d.endpointId),
      column((d) => d.event.organization_id),
      column((d) => d.event.id),
      column((d) => d.event.type),
      column((d) => d.event.created_at),
      column((d) => d.event.ordering_key),
      column((d) => d.payload),
    ],
  );
}

/**
 * The fan-out (the outbox's relay): events not yet dispatched become one delivery per matching
 * enabled endpoint of their organization (and of their integration, for an endpoint limited to
 * one), each with its body rendered once and an attempt enqueued, in the same transaction that
 * marks the events dispatched. A batch costs at most six statements however many events and
 * endpoints it holds. One instance at a time (a transaction-scoped advisory lock), so
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
    const { rows } = await tx.sql.query<EventRow>(
      `${EVENT_SELECT.replace("SELECT e.id", "SELECT e.organization_id, e.integration_id, e.ordering_key, e.id")}
       WHERE e.dispatched_at IS NULL ORDER BY e.created_at, e.id LIMIT ${BATCH}`,
    );
    if (rows.length === 0) return 0;
    // Every event's matching endpoints in one statement, in event order, then endpoint order.
    const matches = await tx.sql.query<{ event: number; endpoint_id: string }>(
      `SELECT ev.ord::int - 1 AS event, w.id AS endpoint_id
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS ev(organization_id, type, integration_id, ord)
         JOIN webhook_endpoints w ON w.organization_id = ev.organization_id AND w.status = 'enabled'
          AND ev.type = ANY(w.event_types) AND (w.integration_id IS NULL OR w.integration_id = ev.integration_id)
        ORDER BY ev.ord, w.id`,
      [rows.map((row) => row.organization_id), rows.map((row) => row.type), rows.map((row) => row.integration_id)],
    );
    const payloads = new Map<number, string | null>();
    const deliveries: DeliveryRow[] = [];
    for (const match of matches.rows) {
      const row = rows[match.event];
      if (!row) continue;
      if (!payloads.has(match.event)) payloads.set(match.event, renderOnce(row, options));
      const payload = payloads.get(match.event);
      if (payload == null) continue;
      deliveries.push({ id: newId("whd"), endpointId: match.endpoint_id, event: row, payload });
    }
    await insertDeliveries(tx, deliveries);
    await queue.enqueueMany(
      tx,
      QUEUES.webhooks,
      deliveries.map((delivery) => deliveryJob(delivery.id)),
    );
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
