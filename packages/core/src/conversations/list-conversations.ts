import type { Database } from "../db/database";
import { decodeCursor, encodeCursor, pageOf } from "../paging/cursor";
import { CONVERSATION_COLUMNS, toConversation, type ConversationRecord, type ConversationRow } from "./conversations";

/**
 * GET /v1/conversations: a key's conversations with one of its end users (the `external_user_id`
 * they were created for), most recently active first: ordered by `updated_at`, which each message
 * moves on, then id (docs/decisions.md, "Conversations and messages"). Only the key's own API
 * conversations, as on every conversation route: never another key's, nor its hosted-chat ones.
 * Served in page order by the index on (api_key_id, external_user_id, updated_at, id).
 */
export async function listConversations(
  db: Database,
  apiKeyId: string,
  input: { externalUserId: string; limit: number; cursor?: string | undefined },
): Promise<{ conversations: ConversationRecord[]; nextCursor: string | null }> {
  // The key is in the filters: another key's cursor is refused rather than paging from its place.
  const filters = { list: "conversations", key: apiKeyId, user: input.externalUserId };
  const before = decodeCursor(db.secrets, input.cursor, filters);
  const { rows } = await db.sql.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations
     WHERE api_key_id = $1 AND external_user_id = $2 AND partner_user_id IS NULL
       AND ($3::timestamptz IS NULL OR (updated_at, id) < ($3::timestamptz, $4::text))
     ORDER BY updated_at DESC, id DESC LIMIT $5`,
    [apiKeyId, input.externalUserId, before?.createdAt ?? null, before?.id ?? "", input.limit + 1],
  );
  const page = pageOf(rows, input.limit, (last) =>
    encodeCursor(db.secrets, { createdAt: last.updatedAt.toISOString(), id: last.id }, filters),
  );
  return { conversations: page.rows.map(toConversation), nextCursor: page.nextCursor };
}
