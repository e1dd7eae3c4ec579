import type { Database } from "../../db/database";

/**
 * Which of these external user ids have a user in the integration (deleted ones too: their
 * page still shows their history). An import's failed row may name a user that was never
 * created; the console links only the ones that exist.
 */
export async function existingExternalUserIds(
  db: Database,
  integrationId: string,
  externalUserIds: readonly string[],
): Promise<Set<string>> {
  if (externalUserIds.length === 0) return new Set();
  const { rows } = await db.sql.query<{ external_user_id: string }>(
    "SELECT external_user_id FROM partner_users WHERE integration_id = $1 AND external_user_id = ANY($2::text[])",
    [integrationId, [...externalUserIds]],
  );
  return new Set(rows.map((row) => row.external_user_id));
}
