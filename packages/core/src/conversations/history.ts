import { generatingAnswers, type GeneratingAnswer } from "../answers/generating-answers";
import type { Database } from "../db/database";
import { decodePositionCursor, encodePositionCursor, pageOf } from "../paging/cursor";
import {
  getOwnedConversation,
  MESSAGE_COLUMNS,
  toMessage,
  type ConversationOwner,
  type MessageRecord,
  type MessageRow,
} from "./conversations";
import type { HistoryOrder } from "./message-values";

/** One entry of a conversation's history: a stored message, or an answer still being generated. */
export type HistoryEntry =
  { type: "message"; message: MessageRecord } | { type: "generating"; answer: GeneratingAnswer };

export interface HistoryInput {
  order: HistoryOrder;
  /** Stored messages per page; with neither this nor `cursor` the history comes whole. */
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** A page's size when a cursor comes without a limit: the most a page may hold. */
export const HISTORY_PAGE_MAX = 100;

/**
 * A conversation's history (GET …/messages, docs/decisions.md "Conversations and messages"): its
 * stored messages by position, whole or paged (keyset on position, so messages appended while a
 * client pages never shift a page: they come after the last one oldest first, and before the
 * first newest first), and the answers still being generated at its newest end (the last page
 * oldest first, the first newest first). `limit` counts stored messages; those answers, one per
 * streamed request under way, come on top.
 */
export async function messageHistory(
  db: Database,
  owner: ConversationOwner,
  conversationId: string,
  input: HistoryInput,
): Promise<{ entries: HistoryEntry[]; nextCursor?: string | null }> {
  await getOwnedConversation(db, owner, conversationId);
  const paged = input.limit !== undefined || input.cursor !== undefined;
  const filters = { list: "messages", conversation: conversationId, order: input.order };
  const after = decodePositionCursor(db.secrets, input.cursor, filters);
  const newestFirst = input.order === "desc";
  // Only a page at the newest end can show them; oldest first, which page that is shows only
  // once its messages are read, and they must be read first (see generatingAnswers).
  const generating = newestFirst && after !== undefined ? [] : await generatingAnswers(db, conversationId);
  const limit = paged ? (input.limit ?? HISTORY_PAGE_MAX) : undefined;
  const { rows } = await db.sql.query<MessageRow & { position: number }>(
    `SELECT ${MESSAGE_COLUMNS}, position FROM messages
     WHERE conversation_id = $1 AND ($2::int IS NULL OR position ${newestFirst ? "<" : ">"} $2)
     ORDER BY position ${newestFirst ? "DESC" : "ASC"} LIMIT $3`,
    [conversationId, after ?? null, limit === undefined ? null : limit + 1],
  );
  const page =
    limit === undefined
      ? { rows, nextCursor: null }
      : pageOf(rows, limit, (last) => encodePositionCursor(db.secrets, last.position, filters));
  const atNewestEnd = newestFirst ? after === undefined : page.nextCursor === null;
  const stored = new Set(page.rows.map((row) => row.id));
  const answers = atNewestEnd
    ? generating
        .filter((answer) => !stored.has(answer.messageId))
        .map((answer) => ({ type: "generating" as const, answer }))
    : [];
  const messages = page.rows.map((row) => ({ type: "message" as const, message: toMessage(row) }));
  const entries = newestFirst ? [...answers.reverse(), ...messages] : [...messages, ...answers];
  return paged ? { entries, nextCursor: page.nextCursor } : { entries };
}
