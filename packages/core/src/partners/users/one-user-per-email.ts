import type pg from "pg";
import { AppError } from "../../errors/app-error";

/**
 * One person is one user per integration: within one integration, an email address belongs to
 * at most one user that is not deleted (a deleted user's email is erased). Identity matching
 * links a partner user to the site account of its email, so a second user of the same
 * integration with that email would be the same person's account under two external ids:
 * refused with 409 identity_conflict. Users of other integrations (other partners) may share
 * the address: that is the shared site account of docs/decisions.md.
 *
 * Called inside the transaction that stores the email (PUT user and imports, reprovision,
 * profile changes), it takes a transaction-level advisory lock on (integration, email) first,
 * so two requests claiming one address at once are serialized and the second sees the first.
 */
export async function claimEmailInIntegration(client: pg.PoolClient, input: { integrationId: string; email: string; externalUserId: string }): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`partner-user-email:${input.integrationId}:${input.email}`]);
  const { rows } = await client.query<{ external_user_id: string }>(
    `SELECT external_user_id FROM partner_users
     WHERE integration_id = $1 AND email = $2 AND status <> 'deleted' AND external_user_id <> $3
     ORDER BY created_at LIMIT 1`,
    [input.integrationId, input.email, input.externalUserId],
  );
  const holder = rows[0];
  if (holder) {
    throw new AppError(
      "identity_conflict",
      `another user of this integration (${holder.external_user_id}) already has this email. One person is one user per integration: use another address`,
      { field: "email" },
    );
  }
}
