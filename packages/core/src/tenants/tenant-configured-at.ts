import type { Database } from "../db/database";

/** When the organization's tenant configuration was last stored; null while it has none. */
export async function tenantConfiguredAt(db: Database, organizationId: string): Promise<Date | null> {
  const { rows } = await db.sql.query<{ updated_at: Date }>(
    "SELECT updated_at FROM tenant_configurations WHERE organization_id = $1",
    [organizationId],
  );
  return rows[0]?.updated_at ?? null;
}
