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
  const id = newId("evt");
  await db.sql.query(
    "INSERT INTO events (id, organization_id, integration_id, type, data, ordering_key, created_at) VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp())",
    [
      id,
      input.organizationId,
      input.integrationId,
      input.type,
      JSON.stringify(input.subject),
      input.orderingKey ?? null,
    ],
  );
  return id;
}
