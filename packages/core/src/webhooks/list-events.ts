import type { Database } from "../db/database";
import { decodeCursor, keysetPage } from "../paging/cursor";
import type { EventType } from "./event-values";
import type { EventSubject } from "./record-event";

/** Events are kept (and listed) this long. */
export const EVENT_RETENTION_DAYS = 30;

export interface StoredEvent {
  id: string;
  type: EventType;
  createdAt: Date;
  /** The integration's slug; null for organization-wide events. */
  integration: string | null;
  /** As recorded (JSON: dates are ISO strings). */
  subject: EventSubject;
}

interface EventRow {
  id: string;
  type: EventType;
  created_at: Date;
  slug: string | null;
  data: EventSubject;
}

export const toStoredEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  type: row.type,
  createdAt: row.created_at,
  integration: row.slug,
  subject: row.data,
});

export const EVENT_SELECT =
  "SELECT e.id, e.type, e.created_at, i.slug, e.data FROM events e LEFT JOIN integrations i ON i.id = e.integration_id";

/**
 * GET /v1/events: an organization's events of the last 30 days, newest first, filtered by type,
 * integration and creation time, paged by (created_at, id) like every list.
 */
export async function listEvents(
  db: Database,
  input: {
    organizationId: string;
    types?: EventType[] | undefined;
    integration?: string | undefined;
    createdAfter?: Date | undefined;
    createdBefore?: Date | undefined;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ events: StoredEvent[]; nextCursor: string | null }> {
  const filters = {
    types: input.types?.length ? [...input.types].sort() : null,
    integration: input.integration ?? null,
    after: input.createdAfter?.toISOString() ?? null,
    before: input.createdBefore?.toISOString() ?? null,
  };
  const position = decodeCursor(db.secrets, input.cursor, filters);
  const { rows } = await db.sql.query<EventRow>(
    `${EVENT_SELECT}
     WHERE e.organization_id = $1 AND e.created_at > now() - make_interval(days => $2)
       AND ($3::text[] IS NULL OR e.type = ANY($3::text[]))
       AND ($4::text IS NULL OR i.slug = $4)
       AND ($5::timestamptz IS NULL OR e.created_at >= $5) AND ($6::timestamptz IS NULL OR e.created_at < $6)
       AND ($7::timestamptz IS NULL OR (e.created_at, e.id) < ($7::timestamptz, $8::text))
     ORDER BY e.created_at DESC, e.id DESC LIMIT $9`,
    [
      input.organizationId,
      EVENT_RETENTION_DAYS,
      filters.types,
      filters.integration,
      filters.after,
      filters.before,
      position?.createdAt ?? null,
      position?.id ?? "",
      input.limit + 1,
    ],
  );
  const page = keysetPage(db.secrets, rows, input.limit, filters);
  return { events: page.rows.map(toStoredEvent), nextCursor: page.nextCursor };
}

/** The retention sweep: events older than 30 days, and the finished deliveries of that age. */
export async function sweepOldEvents(db: Database): Promise<number> {
  const { rowCount } = await db.sql.query("DELETE FROM events WHERE created_at < now() - make_interval(days => $1)", [
    EVENT_RETENTION_DAYS,
  ]);
  await db.sql.query(
    "DELETE FROM webhook_deliveries WHERE created_at < now() - make_interval(days => $1) AND status <> 'pending'",
    [EVENT_RETENTION_DAYS],
  );
  return rowCount ?? 0;
}
