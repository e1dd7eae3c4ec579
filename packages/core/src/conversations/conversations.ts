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
  input: { apiKeyId: string; organizationId: string; user: EndUser; title?: string | undefined; metadata?: Record<string, unknown> | undefined },
): Promise<ConversationRecord> {
  const row = await db.prisma.conversation.create({
    data: {
      id: newId("conv"),
      apiKeyId: input.apiKeyId,
      organizationId: input.organizationId,
      externalUserId: input.user.external_user_id,
      userEmail: input.user.email ?? null,
      userName: input.user.name ?? null,
      title: input.title ?? null,
      metadata: (input.metadata ?? {}) as object,
    },
  });
  return toConversation(row);
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

function ownerFilter(owner: ConversationOwner) {
  return typeof owner === "string"
    ? { apiKeyId: owner, partnerUserId: null }
    : { partnerUserId: owner.partnerUserId, accountGeneration: owner.generation, externalLoanId: owner.loanId };
}

/** A conversation of this owner; anyone else's (or none) is the same 404. */
export async function getOwnedConversation(db: Database, owner: ConversationOwner, conversationId: string): Promise<ConversationRecord> {
  const row = await db.prisma.conversation.findFirst({ where: { id: conversationId, ...ownerFilter(owner) } });
  if (!row) throw new AppError("not_found", `conversation ${conversationId} not found`);
  return toConversation(row);
}

/** Stored messages in conversation order. */
export async function listMessages(db: Database, owner: ConversationOwner, conversationId: string): Promise<MessageRecord[]> {
  await getOwnedConversation(db, owner, conversationId);
  const rows = await db.prisma.message.findMany({ where: { conversationId }, orderBy: { position: "asc" } });
  return rows.map(toMessage);
}

export function toConversation(row: {
  id: string;
  title: string | null;
  status: string;
  metadata: unknown;
  messageCount: number;
  createdAt: Date;
  updatedAt: Date;
}): ConversationRecord {
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

export function toMessage(row: {
  id: string;
  role: string;
  content: string;
  citations: unknown;
  sources: unknown;
  metadata: unknown;
  status: string;
  createdAt: Date;
}): MessageRecord {
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
