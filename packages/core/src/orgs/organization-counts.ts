import type { Database } from "../db/database";

/** What an organization holds, as the console's organization list shows it. */
export interface OrganizationCounts {
  integrations: number;
  activeKeys: number;
}

/** Counts of every organization, by id (one statement, however many organizations there are). */
export async function countOrganizationHoldings(db: Database): Promise<Map<string, OrganizationCounts>> {
  const { rows } = await db.sql.query<{ organization_id: string; integrations: number; active_keys: number }>(
    `SELECT o.id AS organization_id,
            (SELECT count(*)::int FROM integrations i WHERE i.organization_id = o.id) AS integrations,
            (SELECT count(*)::int FROM api_keys k WHERE k.organization_id = o.id AND k.status = 'active' AND (k.expires_at IS NULL OR k.expires_at > now())) AS active_keys
     FROM organizations o`,
  );
  return new Map(
    rows.map((row) => [row.organization_id, { integrations: row.integrations, activeKeys: row.active_keys }]),
  );
}
