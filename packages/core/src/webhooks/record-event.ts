import type { Database } from "../db/database";
import { newId } from "../ids/new-id";
import type { ImportRecord } from "../partners/imports/imports";
import type { OperationRecord } from "../partners/operations/operation-record";
import type { PartnerUserRecord } from "../partners/users/partner-user";
import type { EventType } from "./event-values";

/** An import as events carry it: its summary counts, not its per-row results (GET the import for those). */
export type ImportEventRecord = Omit<ImportRecord, "results">;

/** A key about to expire, as the key-lifecycle work records it (never its secret). */
export interface KeyEventRecord {
  id: string;
  name: string;
  lastFour: string;
  expiresAt: Date | string;
}

/** The resource an event reports, in core's shape; the API renders its public form from it. */
export type EventSubject =
  | { user: PartnerUserRecord }
  | { operation: OperationRecord; user?: PartnerUserRecord }
  | { import: ImportEventRecord }
  | { key: KeyEventRecord };

export interface RecordEventInput {
  type: EventType;
  organizationId: string;
  /** The integration's id (null for organization-wide events such as a key expiring). */
  integrationId: string | null;
  subject: EventSubject;
  /** Events with the same key reach an endpoint in the order they were recorded (a user's id). */
  orderingKey?: string | null;
}

/**
 * Records an event (the outbox of the webhooks): called with the `tx` of the change it reports,
 * it exists exactly when that change is committed. The job worker fans it out to the
 * organization's endpoints afterwards (dispatch-events.ts); nothing is sent on the request path.
 */
export async function recordEvent(db: Database, input: RecordEventInput): Promise<string> {
  const [id] = await recordEvents(db, [input]);
  return id as string;
}

/**
 * Several events in one statement (an import chunk's users becoming launchable), in the order
 * given: `created_at` is read per row, to the millisecond, so rows of one statement may tie.
 * Delivery order only holds within an ordering key: give one event per key (one per user).
 */
export async function recordEvents(db: Database, inputs: RecordEventInput[]): Promise<string[]> {
  if (inputs.length === 0) return [];
  const ids = inputs.map(() => newId("evt"));
  await db.sql.query(
    `INSERT INTO events (id, organization_id, integration_id, type, data, ordering_key, created_at)
     SELECT e.id, e.organization_id, e.integration_id, e.type, e.data::jsonb, e.ordering_key, clock_timestamp()
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       WITH ORDINALITY AS e(id, organization_id, integration_id, type, data, ordering_key, ord)
     ORDER BY e.ord`,
    [
      ids,
      inputs.map((input) => input.organizationId),
      inputs.map((input) => input.integrationId),
      inputs.map((input) => input.type),
      inputs.map((input) => JSON.stringify(input.subject)),
      inputs.map((input) => input.orderingKey ?? null),
    ],
  );
  return ids;
}
