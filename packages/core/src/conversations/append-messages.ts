import type { Database } from "../db/database";
import { prepared } from "../db/prepared";
import { AppError } from "../errors/app-error";
import type { EmbeddedOwner, EndUser } from "./conversations";
import type { MessageRole, MessageStatus } from "./message-values";

export interface NewMessage {
  id: string;
  role: MessageRole;
  content: string;
  citations?: unknown[];
  sources?: unknown[];
  metadata?: Record<string, unknown>;
  status?: MessageStatus;
  createdAt: Date;
}

export interface NewConversation {
  id: string;
  organizationId: string;
  user: EndUser;
  title?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  embedded?: EmbeddedOwner | undefined;
}

/** A conversation to create, with its first messages, on behalf of a key. */
export interface ConversationStart {
  apiKeyId: string;
  conversation: NewConversation;
  messages: NewMessage[];
}

const messageRecord = (message: NewMessage, position: number, conversationId: string) => ({
  id: message.id,
  conversation_id: conversationId,
  position,
  role: message.role,
  content: message.content,
  citations: message.citations ?? [],
  sources: message.sources ?? [],
  metadata: message.metadata ?? {},
  status: message.status ?? "complete",
  created_at: message.createdAt.toISOString(),
});

const MESSAGE_RECORD_COLUMNS =
  "id text, conversation_id text, position int, role text, content text, citations jsonb, sources jsonb, metadata jsonb, status text, created_at timestamptz";
const INSERT_MESSAGES =
  "INSERT INTO messages (id, conversation_id, position, role, content, citations, sources, metadata, status, created_at)";

/** Conversations with their first messages (insertConversationStarts): $1 the conversations, $2 the messages, as JSON. */
const insertStarts = prepared(
  "conversation-starts",
  `
WITH c AS (
  INSERT INTO conversations (id, api_key_id, organization_id, external_user_id, user_email, user_name, title, metadata, message_count,
                             partner_user_id, account_generation, launch_id, external_loan_id, created_at, updated_at)
  SELECT id, api_key_id, organization_id, external_user_id, user_email, user_name, title, metadata, message_count,
         partner_user_id, account_generation, launch_id, external_loan_id, now(), now()
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, api_key_id text, organization_id text, external_user_id text, user_email text, user_name text, title text,
                                          metadata jsonb, message_count int, partner_user_id text, account_generation int, launch_id text, external_loan_id text)
  RETURNING id
)
${INSERT_MESSAGES}
SELECT m.id, c.id, m.position, m.role, m.content, m.citations, m.sources, m.metadata, m.status, m.created_at
FROM jsonb_to_recordset($2::jsonb) AS m(${MESSAGE_RECORD_COLUMNS}) JOIN c ON c.id = m.conversation_id`,
);

/** Messages appended to a conversation of the key or of the embedded user (appendMessages). */
const appendToConversation = prepared(
  "conversation-append",
  `
WITH c AS (
  UPDATE conversations SET message_count = message_count + $3, updated_at = now()
  WHERE id = $1 AND CASE WHEN $5::text IS NULL THEN api_key_id = $2 AND partner_user_id IS NULL
                         ELSE partner_user_id = $5 AND account_generation = $6 AND external_loan_id = $7 END
  RETURNING id, message_count - $3 AS base
)
${INSERT_MESSAGES}
SELECT m.id, c.id, c.base + m.position, m.role, m.content, m.citations, m.sources, m.metadata, m.status, m.created_at
FROM c, jsonb_to_recordset($4::jsonb) AS m(${MESSAGE_RECORD_COLUMNS})
RETURNING id`,
);

/**
 * Creates conversations with their first messages, any number in one statement (one round
 * trip): the one place a conversation is created. All or none: a start that breaks a
 * constraint fails the statement.
 */
export async function insertConversationStarts(db: Database, starts: ConversationStart[]): Promise<void> {
  const conversations = starts.map(({ apiKeyId, conversation, messages }) => ({
    id: conversation.id,
    api_key_id: apiKeyId,
    organization_id: conversation.organizationId,
    external_user_id: conversation.user.external_user_id,
    user_email: conversation.user.email ?? null,
    user_name: conversation.user.name ?? null,
    title: conversation.title ?? null,
    metadata: conversation.metadata ?? {},
    message_count: messages.length,
    partner_user_id: conversation.embedded?.partnerUserId ?? null,
    account_generation: conversation.embedded?.generation ?? null,
    launch_id: conversation.embedded?.launchId ?? null,
    external_loan_id: conversation.embedded?.loanId ?? null,
  }));
  const messages = starts.flatMap(({ conversation, messages }) =>
    messages.map((message, index) => messageRecord(message, index + 1, conversation.id)),
  );
  await db.sql.query(insertStarts([JSON.stringify(conversations), JSON.stringify(messages)]));
}

/**
 * Appends messages to a conversation (or creates it with them) in one statement (one round
 * trip): the conversation's row is locked by the UPDATE, so concurrent messages to the same
 * conversation get consecutive positions and an exact message_count.
 */
export async function appendMessages(
  db: Database,
  target: { apiKeyId: string; embedded?: EmbeddedOwner | undefined } & (
    { conversationId: string } | { create: NewConversation }
  ),
  messages: NewMessage[],
): Promise<void> {
  if ("create" in target)
    return insertConversationStarts(db, [{ apiKeyId: target.apiKeyId, conversation: target.create, messages }]);
  const records = JSON.stringify(
    messages.map((message, index) => messageRecord(message, index + 1, target.conversationId)),
  );
  const result = await db.sql.query(
    appendToConversation([
      target.conversationId,
      target.apiKeyId,
      messages.length,
      records,
      target.embedded?.partnerUserId ?? null,
      target.embedded?.generation ?? null,
      target.embedded?.loanId ?? null,
    ]),
  );
  if (result.rowCount !== messages.length)
    throw new AppError("not_found", `conversation ${target.conversationId} not found`);
}

/** Takes back a conversation nobody was told of (sendMessage's early write, when the upstream failed before answering); its messages go with it. */
export async function deleteConversation(db: Database, conversationId: string): Promise<void> {
  await db.sql.query("DELETE FROM conversations WHERE id = $1", [conversationId]);
}
