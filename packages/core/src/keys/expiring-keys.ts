import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { COLUMNS, toSummary, type ApiKeySummary, type KeyRow } from "./api-keys";
import { MAX_KEY_LIFETIME_DAYS } from "./key-expiry";

/**
 * Active keys that have not expired yet but will within `withinDays` days, soonest first: the
 * console's "expiring soon" panel and the "key expiring" event read the same list. Without an
 * organization it spans every organization (for the event's sweep).
 */
export async function listKeysExpiringWithin(
  db: Database,
  input: { withinDays: number; organizationId?: string; now?: Date },
): Promise<ApiKeySummary[]> {
  if (!Number.isInteger(input.withinDays) || input.withinDays < 1 || input.withinDays > MAX_KEY_LIFETIME_DAYS) {
    throw new AppError("invalid_request", `within_days: must be a whole number from 1 to ${MAX_KEY_LIFETIME_DAYS}`, {
      field: "within_days",
    });
  }
  const now = input.now ?? new Date();
  const { rows } = await db.sql.query<KeyRow>(
    `SELECT ${COLUMNS} FROM api_keys
     WHERE status = 'active' AND expires_at > $1 AND expires_at <= $1 + make_interval(days => $2) AND ($3::text IS NULL OR organization_id = $3)
     ORDER BY expires_at, id`,
    [now, input.withinDays, input.organizationId ?? null],
  );
  return rows.map(toSummary);
}
