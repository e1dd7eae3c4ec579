import type { Database } from "../db/database";
import { upstreamLoanContext, type UpstreamLoanContext } from "../launches/loan-context";

/** The launch a hosted-chat conversation was started from, as support staff read it. */
export interface ConversationLaunch {
  id: string;
  integrationId: string;
  /** The integration's slug (the launch's LOS/source). */
  integration: string;
  /** The public name the launch was authorized under. */
  publicName: string;
  /** The partner user who launched, as the partner names them. */
  externalUserId: string | null;
  createdAt: Date;
  consumedAt: Date | null;
  expiresAt: Date;
}

/** Where a conversation came from: its loan and launch (both null for an API conversation). */
export interface ConversationOrigin {
  loan: (UpstreamLoanContext & { external_loan_id: string }) | null;
  launch: ConversationLaunch | null;
  accountGeneration: number | null;
}

/**
 * For support staff (whoever asks has checked the conversation is the key's): the loan and the
 * launch of a hosted-chat conversation. The loan is the launch's loan context, limited to the
 * spec's fields; when the launch row is gone the context the conversation recorded stands in.
 */
export async function conversationOrigin(db: Database, conversationId: string): Promise<ConversationOrigin> {
  const { rows } = await db.sql.query<{
    metadata: Record<string, unknown> | null;
    partner_user_id: string | null;
    external_loan_id: string | null;
    account_generation: number | null;
    launch_id: string | null;
    integration_id: string | null;
    slug: string | null;
    attribution: { public_name?: unknown } | null;
    loan_context: Record<string, unknown> | null;
    created_at: Date | null;
    consumed_at: Date | null;
    expires_at: Date | null;
    external_user_id: string | null;
  }>(
    `SELECT c.metadata, c.partner_user_id, c.external_loan_id, c.account_generation, l.id AS launch_id, l.integration_id, i.slug, l.attribution, l.loan_context,
            l.created_at, l.consumed_at, l.expires_at, u.external_user_id
     FROM conversations c
     LEFT JOIN launches l ON l.id = c.launch_id
     LEFT JOIN integrations i ON i.id = l.integration_id
     LEFT JOIN partner_users u ON u.id = c.partner_user_id
     WHERE c.id = $1`,
    [conversationId],
  );
  const row = rows[0];
  if (!row || row.partner_user_id === null)
    return { loan: null, launch: null, accountGeneration: row?.account_generation ?? null };
  const recorded = row.metadata?.loan_context;
  const context =
    row.loan_context ?? (recorded && typeof recorded === "object" ? (recorded as Record<string, unknown>) : {});
  const loan = { ...upstreamLoanContext(context), external_loan_id: row.external_loan_id ?? "" };
  const launch =
    row.launch_id && row.integration_id && row.created_at && row.expires_at
      ? {
          id: row.launch_id,
          integrationId: row.integration_id,
          integration: row.slug ?? "",
          publicName: typeof row.attribution?.public_name === "string" ? row.attribution.public_name : "",
          externalUserId: row.external_user_id,
          createdAt: row.created_at,
          consumedAt: row.consumed_at,
          expiresAt: row.expires_at,
        }
      : null;
  return { loan, launch, accountGeneration: row.account_generation };
}
