import type { Database } from "../../db/database";
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
 * profile changes) and by the worker as it starts applying a queued email change; it takes a
 * transaction-level advisory lock on (integration, email) first, so claims of one address are
 * serialized and the second sees the first. An email change the worker is applying
 * (`processing`) holds its address too: the user's record takes the address only when the
 * change completes, and nobody may take it in between.
 */
export interface EmailHolder {
  externalUserId: string;
  /** The holder's email change to this address is being applied (its record does not show it yet). */
  changing: boolean;
}

export async function findEmailHolder(
  tx: Database,
  input: { integrationId: string; email: string; externalUserId: string },
): Promise<EmailHolder | undefined> {
  const [holder] = await findEmailHolders(tx, input.integrationId, [input]);
  return holder;
}

/**
 * findEmailHolder for several claims at once (an import's chunk): the addresses are locked in
 * one sorted order (so two chunks never wait on each other in a cycle), then one statement
 * finds each claim's holder. The result is in the claims' order. Claims of one address among
 * themselves are the caller's to settle (they are not stored yet).
 */
export async function findEmailHolders(
  tx: Database,
  integrationId: string,
  claims: Array<{ email: string; externalUserId: string }>,
): Promise<Array<EmailHolder | undefined>> {
  if (claims.length === 0) return [];
  const emails = claims.map((claim) => claim.email);
  await tx.sql.query(
    "SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM (SELECT DISTINCT k FROM unnest($1::text[]) AS k ORDER BY k) AS keys",
    [emails.map((email) => `partner-user-email:${integrationId}:${email}`)],
  );
  const { rows } = await tx.sql.query<{ n: string; external_user_id: string; changing: boolean }>(
    `SELECT c.n, h.external_user_id, h.changing
     FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS c(email, external_user_id, n)
     CROSS JOIN LATERAL (
       (SELECT external_user_id, false AS changing FROM partner_users
        WHERE integration_id = $1 AND email = c.email AND status <> 'deleted' AND external_user_id <> c.external_user_id
        ORDER BY created_at LIMIT 1)
       UNION ALL
       (SELECT u.external_user_id, true AS changing FROM lifecycle_operations o JOIN partner_users u ON u.id = o.partner_user_id
        WHERE o.integration_id = $1 AND o.type = 'profile_change' AND o.status = 'processing' AND o.requested_email = c.email AND u.external_user_id <> c.external_user_id
        LIMIT 1)
       LIMIT 1
     ) AS h`,
    [integrationId, emails, claims.map((claim) => claim.externalUserId)],
  );
  const holders: Array<EmailHolder | undefined> = claims.map(() => undefined);
  for (const row of rows) holders[Number(row.n) - 1] = { externalUserId: row.external_user_id, changing: row.changing };
  return holders;
}

/**
 * The refusal when another user of the integration holds the address. It does not name the
 * holder: the partner would learn which of its users has an address it typed (emails are never
 * returned, spec 2.9); staff find the holder with the console's search.
 */
export function emailTakenError(holder: EmailHolder): AppError {
  const has = holder.changing ? "is being given this email" : "already has this email";
  return new AppError(
    "identity_conflict",
    `another user of this integration ${has}. One person is one user per integration: use another address`,
    {
      field: "email",
    },
  );
}

export async function claimEmailInIntegration(
  tx: Database,
  input: { integrationId: string; email: string; externalUserId: string },
): Promise<void> {
  const holder = await findEmailHolder(tx, input);
  if (holder) throw emailTakenError(holder);
}
