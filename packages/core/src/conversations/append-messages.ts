import type { Database } from "../db/database";
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

/**
 * Appends messages to a conversation in one statement (one round trip): the conversation's
 * row is locked by the UPDATE (or created by the INSERT), so concurrent messages to the
 * same conversation get consecutive positions and an exact message_count.
 */
export async function appendMessages(
  db: Database,
  target: { apiKeyId: string; embedded?: EmbeddedOwner | undefined } & ({ conversationId: string } | { create: NewConversation }),
  messages: NewMessage[],
): Promise<void> {
  const rows = JSON.stringify(
    messages.map((message, index) => ({
      id: message.id,
      ord: index + 1,
      role: message.role,
      content: message.content,
      citations: message.citations ?? [],
      sources: message.sources ?? [],
      metadata: message.metadata ?? {},
      status: message.status ?? "complete",
      created_at: message.createdAt.toISOString(),
    })),
  );
  const insertMessages = `
INSERT INTO messages (id, conversation_id, position, role, content, citations, sources, metadata, status, created_at)
SELECT m.id, c.id, c.base + m.ord, m.role, m.content, m.citations, m.sources, m.metadata, m.status, m.created_at
FROM c, jsonb_to_recordset($ROWS::jsonb) AS m(id text, ord int, role text, content text, citations jsonb, sources jsonb, metadata jsonb, status text, created_at timestamptz)
RETURNING id`;
  if ("create" in target) {
    const conversation = target.create;
    const sql = `
WITH c AS (
  INSERT INTO conversations (id, api_key_id, organization_id, external_user_id, user_email, user_name, title, metadata, message_count,
                             partner_user_id, account_generation, launch_id, external_loan_id, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $11, $12, $13, $14, now(), now())
  RETURNING id, 0 AS base
)${insertMessages.replace("$ROWS", "$10")}`;
    await db.sql.query(sql, [
      conversation.id,
      target.apiKeyId,
      conversation.organizationId,
      conversation.user.external_user_id,
      conversation.user.email ?? null,
      conversation.user.name ?? null,
      conversation.title ?? null,
      JSON.stringify(conversation.metadata ?? {}),
      messages.length,
      rows,
      conversation.embedded?.partnerUserId ?? null,
      conversation.embedded?.generation ?? null,
      conversation.embedded?.launchId ?? null,
      conversation.embedded?.loanId ?? null,
    ]);
    return;
  }
  const sql = `
WITH c AS (
  UPDATE conversations SET message_count = message_count + $3, updated_at = now()
  WHERE id = $1 AND CASE WHEN $5::text IS NULL THEN api_key_id = $2 AND partner_user_id IS NULL
                         ELSE partner_user_id = $5 AND account_generation = $6 AND external_loan_id = $7 END
  RETURNING id, message_count - $3 AS base
)${insertMessages.replace("$ROWS", "$4")}`;
  const result = await db.sql.query(sql, [
    target.conversationId,
    target.apiKeyId,
    messages.length,
    rows,
    target.embedded?.partnerUserId ?? null,
    target.embedded?.generation ?? null,
    target.embedded?.loanId ?? null,
  ]);
  if (result.rowCount !== messages.length) throw new AppError("not_found", `conversation ${target.conversationId} not found`);
}

/** Takes back a conversation nobody was told of (sendMessage's early write, when the upstream failed before answering); its messages go with it. */
export async function deleteConversation(db: Database, conversationId: string): Promise<void> {
  await db.sql.query("DELETE FROM conversations WHERE id = $1", [conversationId]);
}
