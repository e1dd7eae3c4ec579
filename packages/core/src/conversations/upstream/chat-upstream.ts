import type { UpstreamLoanContext } from "../../launches/loan-context";
import type { SourceSelection } from "../source-selection";

/**
 * The port to the upstream chat service (protocol: docs/upstream-protocol.md). The real
 * adapter is HttpChatUpstream; tests point it at msw, the embedded default at the local
 * assistant (apps/assistant).
 */
export interface UpstreamRequest {
  requestId: string;
  conversationId: string;
  message: string;
  history: Array<{ role: "user" | "assistant"; content: string }>;
  sources: SourceSelection;
  /**
   * The agency sources the key's tenant enables (the selection is a subset): lets the upstream
   * tell a program whose guidelines are switched off for the organization from one that is
   * merely not selected for this question.
   */
  enabledAgencySources?: readonly string[] | undefined;
  clientSourceType?: string;
  /** The hosted chat's loan (spec 2.12 fields only), so the answer can fit the loan. */
  loanContext?: UpstreamLoanContext | undefined;
  signal?: AbortSignal;
}

/** Events as the upstream sends them, already checked for shape (not yet sanitized). */
export type UpstreamEvent =
  | { type: "content"; content: string }
  | { type: "content_postprocessed"; content: string; citations?: unknown; sources?: unknown }
  | { type: "complete"; tokensUsed: number; citations?: unknown; sources?: unknown };

export interface ChatUpstream {
  /** Yields the answer's events; throws UpstreamError on any failure. Never retried: a sent message may have reached the upstream. */
  stream(request: UpstreamRequest): AsyncIterable<UpstreamEvent>;
}

export type UpstreamFailure =
  "unreachable" | "http_status" | "timeout" | "malformed" | "truncated" | "upstream_reported" | "cancelled";

export class UpstreamError extends Error {
  constructor(
    readonly reason: UpstreamFailure,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = "UpstreamError";
  }
}
