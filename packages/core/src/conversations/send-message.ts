import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { newId } from "../ids/new-id";
import type { AuthenticatedKey } from "../keys/authenticate-api-key";
import type { UpstreamLoanContext } from "../launches/loan-context";
import { appendMessages, deleteConversation, type NewConversation } from "./append-messages";
import { writeConversationStart } from "./conversation-start-writer";
import { getOwnedConversation, type EmbeddedOwner, type EndUser } from "./conversations";
import { sanitizeCitations, sanitizeSources, type PublicCitation, type PublicSource } from "./sanitize";
import { resolveSourceSelection, type SearchOptions } from "./source-selection";
import { UpstreamError, type ChatUpstream } from "./upstream/chat-upstream";

export interface SendMessageInput {
  key: AuthenticatedKey;
  requestId: string;
  message: string;
  user: EndUser;
  metadata?: Record<string, unknown> | undefined;
  searchOptions?: SearchOptions | undefined;
  /** Continue this conversation; when absent a conversation is created. */
  conversationId?: string | undefined;
  newConversation?: { title?: string | undefined; metadata?: Record<string, unknown> | undefined } | undefined;
  /** Embedded chat: the conversation belongs to this partner user's generation, not to the key. */
  embedded?: EmbeddedOwner | undefined;
  /** Embedded chat: the launch's loan, sent upstream with the question (allowed fields only). */
  loanContext?: UpstreamLoanContext | undefined;
}

/** What a streaming caller sees, in order. */
export type SendMessageEvent =
  | { type: "conversation"; conversationId: string; conversationCreated: boolean; messageId: string }
  | { type: "content"; content: string }
  | { type: "content_postprocessed"; content: string }
  | { type: "complete"; tokensUsed: number; citations: PublicCitation[]; sources: PublicSource[] };

export interface SendMessageResult {
  conversationId: string;
  conversationCreated: boolean;
  messageId: string;
  response: string;
  citations: PublicCitation[];
  sources: PublicSource[];
  tokensUsed: number;
}

export interface SendMessageOptions {
  /**
   * `json`: nothing is stored until the answer is complete; then the conversation (when
   * new), the user message and the answer are written together, so a failure stores nothing.
   * `stream`: the conversation and user message are stored when the upstream starts
   * answering (the stream announces the conversation id); a failure after that stores
   * the partial answer marked `incomplete`, never as a successful answer.
   */
  mode: "json" | "stream";
  /** Stops the upstream call; aborted with the reason "cancelled", the partial answer is stored as cancelled. */
  signal?: AbortSignal | undefined;
  onEvent?: (event: SendMessageEvent) => void | Promise<void>;
  /** More of the stored answer's metadata, read when it is stored (a streamed answer says whether its client had gone). */
  answerMetadata?: (() => Record<string, unknown>) | undefined;
}

/** The abort reason of an answer stopped on request (POST …/cancel), not by a failure. */
export const ANSWER_CANCELLED = "cancelled";

const HISTORY_LIMIT = 40;

export async function sendMessage(
  deps: { db: Database; upstream: ChatUpstream },
  input: SendMessageInput,
  options: SendMessageOptions,
): Promise<SendMessageResult> {
  const { db, upstream } = deps;
  const sources = resolveSourceSelection(input.key.tenant, input.searchOptions);
  let history: Array<{ role: "user" | "assistant"; content: string }> = [];
  if (input.conversationId) {
    await getOwnedConversation(db, input.embedded ?? input.key.id, input.conversationId);
    const { rows } = await db.sql.query<{ role: "user" | "assistant"; content: string }>(
      `SELECT role, content FROM (
         SELECT role, content, position FROM messages WHERE conversation_id = $1 AND status = 'complete'
         ORDER BY position DESC LIMIT $2) recent ORDER BY position`,
      [input.conversationId, HISTORY_LIMIT],
    );
    history = rows;
  }

  const conversationCreated = !input.conversationId;
  const conversationId = input.conversationId ?? newId("conv");
  const create: NewConversation | undefined = conversationCreated
    ? {
        id: conversationId,
        organizationId: input.key.organizationId,
        user: input.user,
        title: input.newConversation?.title,
        metadata: input.newConversation?.metadata,
        embedded: input.embedded,
      }
    : undefined;
  const target = create
    ? { apiKeyId: input.key.id, create }
    : { apiKeyId: input.key.id, embedded: input.embedded, conversationId };
  const userMessage = {
    id: newId("msg"),
    role: "user" as const,
    content: input.message,
    metadata: { ...(input.metadata ?? {}), external_user_id: input.user.external_user_id },
    createdAt: new Date(),
  };
  const assistantId = newId("msg");

  // A new conversation's first message is written while the upstream is asked (its id is known
  // to nobody else yet, so an unanswered one can be taken back whole): the write is off the
  // path to the first frame. A message to an existing conversation is written when the
  // upstream answers, so a failure before that leaves no gap in its positions.
  const early =
    options.mode === "stream" && create
      ? settled(writeConversationStart(db, { apiKeyId: input.key.id, conversation: create, messages: [userMessage] }))
      : undefined;
  let userStored = false;
  let streamed = "";
  let finalContent: string | undefined;
  let citations: PublicCitation[] = [];
  let answerSources: PublicSource[] = [];
  let tokensUsed: number | undefined;

  try {
    for await (const event of upstream.stream({
      requestId: input.requestId,
      conversationId,
      message: input.message,
      history,
      sources,
      enabledAgencySources: input.key.tenant.enabledSources,
      clientSourceType: input.key.tenant.clientSourceType,
      loanContext: input.loanContext,
      signal: options.signal,
    })) {
      if (options.mode === "stream" && !userStored) {
        if (early) {
          const failure = await early;
          if (failure) throw failure.error;
        } else {
          await appendMessages(db, target, [userMessage]);
        }
        userStored = true;
        await options.onEvent?.({ type: "conversation", conversationId, conversationCreated, messageId: assistantId });
      }
      if (event.type === "content") {
        streamed += event.content;
        await options.onEvent?.({ type: "content", content: event.content });
      } else if (event.type === "content_postprocessed") {
        finalContent = event.content;
        if (event.citations !== undefined) citations = sanitizeCitations(event.citations);
        if (event.sources !== undefined) answerSources = sanitizeSources(event.sources);
        await options.onEvent?.({ type: "content_postprocessed", content: event.content });
      } else {
        tokensUsed = event.tokensUsed;
        if (event.citations !== undefined) citations = sanitizeCitations(event.citations);
        if (event.sources !== undefined) answerSources = sanitizeSources(event.sources);
      }
    }
    if (tokensUsed === undefined)
      throw new AppError("upstream_error", "the upstream chat service ended without completing the answer");
  } catch (error) {
    const partial = finalContent ?? streamed;
    if (early && !userStored && !(await early)) {
      // Nothing was announced: the conversation written early goes, with its one message.
      await deleteConversation(db, conversationId).catch(() => {});
    }
    if (userStored) {
      // The stream already announced this conversation: keep the partial answer, marked as such.
      await appendMessages(db, { apiKeyId: input.key.id, embedded: input.embedded, conversationId }, [
        {
          id: assistantId,
          role: "assistant",
          content: partial,
          citations: [],
          sources: [],
          status: "incomplete",
          metadata: {
            ...options.answerMetadata?.(),
            tokens_used: 0,
            incomplete: true,
            error_code: options.signal?.reason === ANSWER_CANCELLED ? "cancelled" : "upstream_error",
          },
          createdAt: new Date(),
        },
      ]).catch(() => {});
    }
    if (error instanceof UpstreamError) {
      throw new AppError("upstream_error", upstreamMessage(error), { cause: error });
    }
    throw error;
  }

  const response = finalContent ?? streamed;
  const assistantMessage = {
    id: assistantId,
    role: "assistant" as const,
    content: response,
    citations,
    sources: answerSources,
    metadata: { ...options.answerMetadata?.(), tokens_used: tokensUsed },
    createdAt: new Date(),
  };
  if (userStored)
    await appendMessages(db, { apiKeyId: input.key.id, embedded: input.embedded, conversationId }, [assistantMessage]);
  // A JSON answer's new conversation goes with the instance's other starts (one statement for many under load).
  else if (create)
    await writeConversationStart(db, {
      apiKeyId: input.key.id,
      conversation: create,
      messages: [userMessage, assistantMessage],
    });
  else await appendMessages(db, target, [userMessage, assistantMessage]);
  await options.onEvent?.({ type: "complete", tokensUsed, citations, sources: answerSources });
  return {
    conversationId,
    conversationCreated,
    messageId: assistantId,
    response,
    citations,
    sources: answerSources,
    tokensUsed,
  };
}

/** A write under way whose failure is kept for later, not thrown (an unhandled rejection) while nobody awaits it yet. */
function settled(write: Promise<void>): Promise<{ error: unknown } | undefined> {
  return write.then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
}

function upstreamMessage(error: UpstreamError): string {
  switch (error.reason) {
    case "timeout":
      return "the assistant did not answer in time";
    case "cancelled":
      return "the request was cancelled";
    case "malformed":
    case "truncated":
      return "the assistant returned an unexpected response";
    default:
      return "the assistant is unavailable; try again";
  }
}
