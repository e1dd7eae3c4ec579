import type { AnswerSource, Citation, StreamEvent } from "../types";

/** The answer a stream delivered, once its last frame arrived. */
export interface FinalAnswer {
  /** The post-processed answer when the stream sent one, else the fragments joined. */
  text: string;
  citations: Citation[];
  sources: AnswerSource[];
  tokensUsed: number;
  messageId: string;
  conversationId: string;
  /** Whether POST /v1/messages created the conversation (undefined on a conversation's own route). */
  conversationCreated: boolean | undefined;
  requestId: string;
}

/** Folds frames into the final answer as they pass. */
export class AnswerCollector {
  private fragments: string[] = [];
  private postprocessed: string | undefined;
  private citations: Citation[] = [];
  private sources: AnswerSource[] = [];
  private tokensUsed = 0;
  private conversationCreated: boolean | undefined;
  private completed: FinalAnswer | undefined;

  add(frame: StreamEvent): void {
    switch (frame.type) {
      case "public_api_conversation":
        this.conversationCreated = frame.conversation_created;
        return;
      case "content":
        this.fragments.push(frame.content);
        return;
      case "content_postprocessed":
        this.postprocessed = frame.content;
        return;
      case "complete":
        this.citations = frame.citations;
        this.sources = frame.sources;
        this.tokensUsed = frame.metadata.tokens_used;
        return;
      case "public_api_complete":
        this.completed = {
          text: this.postprocessed ?? this.fragments.join(""),
          citations: this.citations,
          sources: this.sources,
          tokensUsed: this.tokensUsed,
          messageId: frame.message_id,
          conversationId: frame.conversation_id,
          conversationCreated: this.conversationCreated,
          requestId: frame.request_id,
        };
        return;
    }
  }

  get answer(): FinalAnswer | undefined {
    return this.completed;
  }
}
