import type { Database } from "../db/database";
import { withTransaction } from "../db/transaction";

export interface SeedDirectoryInput {
  /** The integration the users belong to (it must exist). */
  integrationId: string;
  users: number;
  /** Teams made for the users to be spread over (default 20). */
  teams?: number;
  /** Starts every external id and email, so one integration can be seeded twice (default "seed"). */
  prefix?: string;
}

export interface SeededDirectory {
  /** The teams' external ids, in the order users are spread over them. */
  teamExternalIds: string[];
}

/**
 * Seeds a large directory for scale tests and the benchmark, in a few statements
 * (generate_series), with the rows provisioning, status changes and deletion write
 * (provision-user.ts, set-user-status.ts, site-account-ownership.ts, run-operation.ts): user number i (1-based) is
 * - deleted when i % 20 = 0 (no email, team, site account or chat identity, unmapped);
 * - otherwise disabled when i % 10 = 5, else active;
 * - provisioning `pending` when i % 50 = 1, `failed` when i % 100 = 7 (no site account or chat
 *   identity yet), else provisioned (a partner-created site account and a chat identity);
 * - unassigned when i % 5 = 3, else in team number (i / 5) % teams;
 * - `<prefix>-<i, 7 digits>`, created in that order (1 ms apart, ending now).
 */
export async function seedDirectory(db: Database, input: SeedDirectoryInput): Promise<SeededDirectory> {
  const teams = input.teams ?? 20;
  const prefix = input.prefix ?? "seed";
  const teamExternalIds = Array.from({ length: teams }, (_, t) => `${prefix}-team-${t}`);
  await withTransaction(db, async (tx) => {
    await tx.sql.query(
      `INSERT INTO partner_teams (id, integration_id, external_team_id, name, status, created_at, updated_at)
       SELECT 'pt_' || substr(md5($1 || ':' || ext), 1, 22), $1, ext, 'Branch ' || ord, 'active', now(), now()
       FROM unnest($2::text[]) WITH ORDINALITY AS t(ext, ord)`,
      [input.integrationId, teamExternalIds],
    );
    await tx.sql.query(
      `CREATE TEMP TABLE seed_users ON COMMIT DROP AS
       SELECT i,
              'pu_' || substr(md5($1 || ':' || $2 || ':' || i), 1, 22) AS id,
              $2 || '-' || lpad(i::text, 7, '0') AS external_user_id,
              CASE WHEN i % 20 = 0 THEN 'deleted' WHEN i % 10 = 5 THEN 'disabled' ELSE 'active' END AS status,
              CASE WHEN i % 50 = 1 THEN 'pending' WHEN i % 100 = 7 THEN 'failed' ELSE 'active' END AS provisioning_status,
              now() - make_interval(secs => ($3 - i) / 1000.0) AS created_at
       FROM generate_series(1, $3::int) AS i`,
      [input.integrationId, prefix, input.users],
    );
    // Temporary tables have no statistics until analyzed: the joins below would loop otherwise.
    await tx.sql.query("ANALYZE seed_users");
    // Provisioned users that are not deleted hold a partner-created site account and a chat identity.
    await tx.sql.query(
      `CREATE TEMP TABLE seed_linked ON COMMIT DROP AS
       SELECT i, id, external_user_id, 'sa_' || substr(md5('sa:' || id), 1, 22) AS site_account_id, 'ci_' || substr(md5('ci:' || id), 1, 22) AS chat_identity_id
       FROM seed_users WHERE status <> 'deleted' AND provisioning_status = 'active'`,
    );
    await tx.sql.query("ANALYZE seed_linked");
    await tx.sql.query(
      `INSERT INTO site_accounts (id, email, name, origin, locked, created_at)
       SELECT l.site_account_id, l.external_user_id || '@' || $1 || '.seed.test', 'Loan Officer ' || l.i, 'partner', s.status = 'disabled', s.created_at
       FROM seed_linked l JOIN seed_users s USING (i)`,
      [input.integrationId.toLowerCase()],
    );
    await tx.sql.query(
      `INSERT INTO partner_created_site_accounts (site_account_id, locked_by_us, created_at)
       SELECT l.site_account_id, s.status = 'disabled', s.created_at FROM seed_linked l JOIN seed_users s USING (i)`,
    );
    await tx.sql.query(
      `INSERT INTO partner_users (id, integration_id, external_user_id, email, name, team_id, identity_origin, experience_type, mapping_status,
         status, provisioning_status, site_account_id, chat_identity_id, access_version, created_at, updated_at)
       SELECT s.id, $1, s.external_user_id,
              CASE WHEN s.status = 'deleted' THEN '' ELSE s.external_user_id || '@' || lower($1) || '.seed.test' END,
              CASE WHEN s.status = 'deleted' THEN NULL ELSE 'Loan Officer ' || s.i END,
              CASE WHEN s.status = 'deleted' OR s.i % 5 = 3 THEN NULL ELSE (SELECT id FROM partner_teams WHERE integration_id = $1 AND external_team_id = ($2::text[])[(s.i / 5) % $3 + 1]) END,
              CASE WHEN l.i IS NULL THEN NULL ELSE 'partner_created' END, 'white_label',
              CASE WHEN s.status = 'deleted' THEN 'unmapped' WHEN l.i IS NULL THEN 'pending' ELSE 'mapped' END,
              s.status, s.provisioning_status, l.site_account_id, l.chat_identity_id,
              CASE WHEN s.status = 'disabled' THEN 2 ELSE 1 END, s.created_at, s.created_at
       FROM seed_users s LEFT JOIN seed_linked l USING (i)`,
      [input.integrationId, teamExternalIds, teams],
    );
    await tx.sql.query(
      `INSERT INTO chat_identities (id, partner_user_id, generation, created_at) SELECT chat_identity_id, id, 1, now() FROM seed_linked`,
    );
  });
  await db.sql.query("ANALYZE partner_users");
  return { teamExternalIds };
}
