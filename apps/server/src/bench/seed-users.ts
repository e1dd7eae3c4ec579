import type { Database } from "@mga/core/db";

/**
 * Puts `count` users into an integration in one statement, a tenth of them in `teamId`, a few
 * disabled or deleted, so that the list's filters and counts have realistic work to do.
 * A stand-in until core's testing area offers its own directory seeding: swap the call in
 * bench.ts for it then (its counters, if any, must stay right, which raw rows may not keep).
 */
export async function seedUsers(db: Database, input: { integrationId: string; teamId: string; count: number }): Promise<void> {
  await db.sql.query(
    `INSERT INTO partner_users (id, integration_id, external_user_id, email, team_id, status, provisioning_status, mapping_status)
     SELECT 'pu_bench' || lpad(i::text, 14, '0'), $1, 'user-' || lpad(i::text, 6, '0'), 'user' || i || '@bench.test',
            CASE WHEN i % 10 = 0 THEN $2 END,
            CASE WHEN i % 50 = 1 THEN 'disabled' WHEN i % 50 = 2 THEN 'deleted' ELSE 'active' END,
            'active', 'mapped'
     FROM generate_series(1, $3::int) AS i`,
    [input.integrationId, input.teamId, input.count],
  );
  await db.sql.query("ANALYZE partner_users");
}
