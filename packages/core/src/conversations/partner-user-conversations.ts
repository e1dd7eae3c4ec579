import type { Database } from "../db/database";
import { decodeCursor, encodeCursor, keysetDirection, pageBothWays } from "../paging/cursor";

/** A partner user's hosted-chat conversation, as the console's user page lists it. */
export interface PartnerUserConversation {
  id: string;
  apiKeyId: string;
  keyName: string;
  title: string | null;
  externalLoanId: string | null;
  accountGeneration: number | null;
  messageCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * For support staff: one partner user's hosted-chat conversations (every account generation
 * and loan, through any launch key), most recently active first, paged both ways like the
 * console's other lists. Only conversations this user's launches started: never another
 * user's, whatever their external id.
 */
export async function listPartnerUserConversations(
  db: Database,
  partnerUserId: string,
  input: { limit: number; cursor?: string | undefined },
): Promise<{
  conversations: PartnerUserConversation[];
  nextCursor: string | null;
  previousCursor: string | null;
  total: number;
}> {
  const filters = { list: "partner-user-conversations", user: partnerUserId };
  const from = decodeCursor(db.secrets, input.cursor, filters);
  const way = keysetDirection(from, "desc");
  const { rows } = await db.sql.query<PartnerUserConversation>(
    `SELECT c.id, c.api_key_id AS "apiKeyId", k.name AS "keyName", c.title, c.external_loan_id AS "externalLoanId", c.account_generation AS "accountGeneration",
            c.message_count AS "messageCount", c.created_at AS "createdAt", c.updated_at AS "updatedAt"
     FROM conversations c JOIN api_keys k ON k.id = c.api_key_id
     WHERE c.partner_user_id = $1 AND ($2::timestamptz IS NULL OR (c.updated_at, c.id) ${way.comparison} ($2::timestamptz, $3::text))
     ORDER BY c.updated_at ${way.order}, c.id ${way.order} LIMIT $4`,
    [partnerUserId, from?.createdAt ?? null, from?.id ?? "", input.limit + 1],
  );
  const counted = await db.sql.query<{ total: number }>(
    "SELECT count(*)::int AS total FROM conversations WHERE partner_user_id = $1",
    [partnerUserId],
  );
  const page = pageBothWays(rows, input.limit, from, (row, backward) =>
    encodeCursor(
      db.secrets,
      { createdAt: row.updatedAt.toISOString(), id: row.id, ...(backward ? { backward: true as const } : {}) },
      filters,
    ),
  );
  return {
    conversations: page.rows,
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
    total: counted.rows[0]?.total ?? 0,
  };
}
