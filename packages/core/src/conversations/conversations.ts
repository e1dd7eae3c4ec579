import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import type { MessageRole, MessageStatus } from "./message-values";
import type { PublicCitation, PublicSource } from "./sanitize";

export interface EndUser {
  external_user_id: string;
  email?: string | undefined;
  name?: string | undefined;
}

export interface ConversationRecord {
  id: string;
  title: string | null;
  status: string;
  metadata: Record<string, unknown>;
  messageCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface MessageRecord {
  id: string;
  role: MessageRole;
  content: string;
  citations: PublicCitation[];
  sources: PublicSource[];
  metadata: Record<string, unknown>;
  status: MessageStatus;
  createdAt: Date;
}

export async function createConversation(
  db: Database,
  input: {
    apiKeyId: string;
    organizationId: string;
    user: EndUser;
    title?: string | undefined;
    metadata?: Record<string, unknown> | undefined;
  },
): Promise<ConversationRecord> {
  const { rows } = await db.sql.query<ConversationRow>(
    `INSERT INTO conversations (id, api_key_id, organization_id, external_user_id, user_email, user_name, title, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${CONVERSATION_COLUMNS}`,
    [
      newId("conv"),
      input.apiKeyId,
      input.organizationId,
      input.user.external_user_id,
      input.user.email ?? null,
      input.user.name ?? null,
      input.title ?? null,
      JSON.stringify(input.metadata ?? {}),
    ],
  );
  return toConversation(rows[0] as ConversationRow);
}

/**
 * Who owns a conversation: an API conversation belongs to the key that created it; an
 * embedded-chat conversation to a partner user's account generation (so a reprovisioned
 * user cannot read the conversations of earlier generations) and to the launch's loan (a
 * chat opened from one loan file never shows another loan's conversations).
 */
export type ConversationOwner = string | EmbeddedOwner;

export interface EmbeddedOwner {
  apiKeyId: string;
  partnerUserId: string;
  /** The launch's loan (spec 3.6: the chat token is loan-scoped). */
  loanId: string;
  generation: number;
  launchId: string;
}

/** The owner's condition on `conversations`, its parameters numbered from $2 ($1 is the conversation id). */
function ownerFilter(owner: ConversationOwner): { where: string; params: unknown[] } {
  return typeof owner === "string"
    ? { where: "api_key_id = $2 AND partner_user_id IS NULL", params: [owner] }
    : {
        where: "partner_user_id = $2 AND account_generation = $3 AND external_loan_id = $4",
        params: [owner.partnerUserId, owner.generation, owner.loanId],
      };
}

/** A conversation of this owner; anyone else's (or none) is the same 404. */
export async function getOwnedConversation(
  db: Database,
  owner: ConversationOwner,
  conversationId: string,
): Promise<ConversationRecord> {
  const filter = ownerFilter(owner);
  const { rows } = await db.sql.query<ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = $1 AND ${filter.where}`,
    [conversationId, ...filter.params],
  );
  const row = rows[0];
  if (!row) throw new AppError("not_found", `conversation ${conversationId} not found`);
  return toConversation(row);
}

/** Stored messages in conversation order. */
export async function listMessages(
  db: Database,
  owner: ConversationOwner,
  conversationId: string,
): Promise<MessageRecord[]> {
  await getOwnedConversation(db, owner, conversationId);
  return conversationMessages(db, conversationId);
}

/** Every message of a conversation, in conversation order (whoever asks has checked ownership). */
export async function conversationMessages(db: Database, conversationId: string): Promise<MessageRecord[]> {
  const { rows } = await db.sql.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = $1 ORDER BY position`,
    [conversationId],
  );
  return rows.map(toMessage);
}

/** A `conversations` row as CONVERSATION_COLUMNS selects it. */
export interface ConversationRow {
  id: string;
  title: string | null;
  status: string;
  metadata: unknown;
  messageCount: number;
  createdAt: Date;
  updatedAt: Date;
  externalUserId: string;
  partnerUserId: string | null;
}

export const CONVERSATION_COLUMNS = `id, title, status, metadata, message_count AS "messageCount", created_at AS "createdAt", updated_at AS "updatedAt",
  external_user_id AS "externalUserId", partner_user_id AS "partnerUserId"`;

/** A `messages` row as MESSAGE_COLUMNS selects it. */
export interface MessageRow {
  id: string;
  role: string;
  content: string;
  citations: unknown;
  sources: unknown;
  metadata: unknown;
  status: string;
  createdAt: Date;
}

export const MESSAGE_COLUMNS = `id, role, content, citations, sources, metadata, status, created_at AS "createdAt"`;

export function toConversation(row: ConversationRow): ConversationRecord {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    messageCount: row.messageCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toMessage(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    role: row.role as MessageRecord["role"],
    content: row.content,
    citations: (row.citations ?? []) as PublicCitation[],
    sources: (row.sources ?? []) as PublicSource[],
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    status: row.status as MessageRecord["status"],
    createdAt: row.createdAt,
  };
}
