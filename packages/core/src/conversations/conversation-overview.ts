import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import {
  CONVERSATION_COLUMNS,
  conversationMessages,
  toConversation,
  type ConversationRecord,
  type ConversationRow,
  type MessageRecord,
} from "./conversations";

export interface ConversationOverview {
  counts: { conversations: number; messages: number; embedded: number };
  lastActivityAt: Date | null;
  recent: Array<ConversationRecord & { externalUserId: string; embedded: boolean }>;
}

/**
 * For support staff: how much a key is used and its latest conversations (API and embedded
 * chat alike). Read only; the messages of one conversation come from staffConversationMessages.
 */
export async function conversationOverview(
  db: Database,
  apiKeyId: string,
  input: { limit: number },
): Promise<ConversationOverview> {
  const { rows } = await db.sql.query<{
    conversations: number;
    messages: number;
    embedded: number;
    last_activity: Date | null;
  }>(
    `SELECT count(*)::int AS conversations, coalesce(sum(message_count), 0)::int AS messages,
            count(*) FILTER (WHERE partner_user_id IS NOT NULL)::int AS embedded, max(updated_at) AS last_activity
     FROM conversations WHERE api_key_id = $1`,
    [apiKeyId],
  );
  const { rows: recent } = await db.sql.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE api_key_id = $1 ORDER BY updated_at DESC, id DESC LIMIT $2`,
    [apiKeyId, input.limit],
  );
  const totals = rows[0] ?? { conversations: 0, messages: 0, embedded: 0, last_activity: null };
  return {
    counts: { conversations: totals.conversations, messages: totals.messages, embedded: totals.embedded },
    lastActivityAt: totals.last_activity,
    recent: recent.map((row) => ({
      ...toConversation(row),
      externalUserId: row.externalUserId,
      embedded: row.partnerUserId !== null,
    })),
  };
}

/** One conversation of a key with its messages, for support (whatever its owner inside the key). */
export async function staffConversationMessages(
  db: Database,
  apiKeyId: string,
  conversationId: string,
): Promise<{ conversation: ConversationRecord & { externalUserId: string }; messages: MessageRecord[] }> {
  const { rows } = await db.sql.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = $1 AND api_key_id = $2`,
    [conversationId, apiKeyId],
  );
  const row = rows[0];
  if (!row) throw new AppError("not_found", `conversation ${conversationId} not found for this key`);
  const messages = await conversationMessages(db, conversationId);
  return { conversation: { ...toConversation(row), externalUserId: row.externalUserId }, messages };
}
