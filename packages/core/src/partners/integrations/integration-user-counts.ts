import type { Database } from "../../db/database";

/** Users (deleted ones excluded) of each of these integrations, by integration id; absent means none. */
export async function countIntegrationUsers(db: Database, integrationIds: string[]): Promise<Map<string, number>> {
  const { rows } = await db.sql.query<{ integration_id: string; users: number }>(
    "SELECT integration_id, count(*)::int AS users FROM partner_users WHERE status <> 'deleted' AND integration_id = ANY($1) GROUP BY integration_id",
    [integrationIds],
  );
  return new Map(rows.map((row) => [row.integration_id, row.users]));
}
