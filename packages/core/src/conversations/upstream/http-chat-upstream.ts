import http, { type IncomingMessage, type OutgoingHttpHeaders, type RequestOptions } from "node:http";
import https from "node:https";
import { urlToHttpOptions } from "node:url";

import { NO_OBSERVER, type Observer } from "../../observe/observer";
import {
  UpstreamError,
  type ChatUpstream,
  type UpstreamEvent,
  type UpstreamFailure,
  type UpstreamRequest,
} from "./chat-upstream";
import { parseSseData } from "./sse-parser";

export interface HttpChatUpstreamOptions {
  /** Base URL of the upstream chat service; the stream endpoint is `${url}/v1/chat/stream`. */
  url: string;
  token?: string | undefined;
  /** Until the response headers arrive. */
  connectTimeoutMs?: number;
  /** Longest silence between two chunks of the stream. */
  idleTimeoutMs?: number;
  /** Longest whole answer. */
  totalTimeoutMs?: number;
  /** Told when each call begins and how it ended (the host's upstream latency and error metrics, its spans). */
  observer?: Pick<Observer, "upstreamCall">;
}

/** The real HTTP client of the upstream chat protocol (docs/upstream-protocol.md). */
export class HttpChatUpstream implements ChatUpstream {
  private readonly endpoint: URL;
  /** Where every call goes, taken from the URL once: a URL given to http.request is converted and merged at each call. */
  private readonly target: RequestOptions;
  /**
   * node:http rather than fetch: fetch's WHATWG request and body streams cost about half a
   * millisecond of CPU per answer here, which a burst of streams pays a thousand times over
   * before its first frames (docs/architecture.md, "Streams").
   */
  private readonly agent: http.Agent;

  constructor(private readonly options: HttpChatUpstreamOptions) {
    this.endpoint = new URL(`${options.url.replace(/\/+$/, "")}/v1/chat/stream`);
    // An idle connection is closed after IDLE_SOCKET_MS, before a proxy in front of the upstream
    // would drop it under us (fetch's own pool did the same after 4 s).
    const agentOptions = { keepAlive: true, timeout: IDLE_SOCKET_MS };
    this.agent = this.endpoint.protocol === "https:" ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(this.endpoint);
    this.target = { protocol, hostname, port, path, auth, method: "POST", agent: this.agent };
  }

  /**
   * Sends the request; resolves with the response once its headers are in. A kept-alive
   * connection the other side closed meanwhile fails before any byte of the request was
   * processed: that one is sent again, once, on a new connection.
   */
  private async post(headers: OutgoingHttpHeaders, body: string, call: UpstreamCall): Promise<IncomingMessage> {
    try {
      return await this.send(headers, body, call);
    } catch (error) {
      if (!(error instanceof StaleConnectionError) || call.stopped)
        throw error instanceof StaleConnectionError ? error.cause : error;
      return this.send(headers, body, call);
    }
  }

  private send(headers: OutgoingHttpHeaders, body: string, call: UpstreamCall): Promise<IncomingMessage> {
    if (call.stopped) return Promise.reject(new Error(CALL_STOPPED));
    // Looked up at each call, not bound at import: test interceptors (msw) replace these functions.
    const request = this.endpoint.protocol === "https:" ? https.request : http.request;
    const contentLength = Buffer.byteLength(body);
    let req: http.ClientRequest | undefined;
    // The body is written outside the listeners' scope: the error listener lives as long as the
    // request, a whole stream, and would keep the body with it.
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      const sent = request({ ...this.target, headers: { ...headers, "Content-Length": contentLength } }, resolve);
      sent.once("error", (error: NodeJS.ErrnoException) => {
        const stale = sent.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
        reject(stale ? new StaleConnectionError(error) : error);
      });
      req = sent;
      call.request = sent;
    });
    // Absent when Node refused to build the request (a header it does not accept): `response`
    // has rejected with that error already.
    req?.end(body);
    return response;
  }

  async *stream(request: UpstreamRequest): AsyncGenerator<UpstreamEvent> {
    const call: UpstreamCall = { request: undefined, stopped: false };
    let timeoutReason: string | undefined;
    const abortFor = (reason: string) => () => {
      timeoutReason = reason;
      stopCall(call);
    };
    const onCallerAbort = () => stopCall(call);
    // A caller already gone (the client left while the request was being prepared) asks nothing.
    if (request.signal?.aborted) stopCall(call);
    request.signal?.addEventListener("abort", onCallerAbort, { once: true });
    const total = setTimeout(abortFor("the answer took too long"), this.options.totalTimeoutMs ?? 300_000);
    let idle = setTimeout(abortFor("no response from the upstream"), this.options.connectTimeoutMs ?? 15_000);
    let answering = false;
    // Once the upstream answers, one idle timer for the stream's life, pushed back by each chunk
    // (`refresh()`), not a new timer per chunk.
    const resetIdle = () => {
      if (answering) {
        idle.refresh();
        return;
      }
      answering = true;
      clearTimeout(idle);
      idle = setTimeout(abortFor("the upstream stream stalled"), this.options.idleTimeoutMs ?? 60_000);
    };

    const fail = (error: unknown): never => {
      if (error instanceof UpstreamError) throw error;
      if (request.signal?.aborted) throw new UpstreamError("cancelled", "the request was cancelled", { cause: error });
      if (timeoutReason) throw new UpstreamError("timeout", timeoutReason, { cause: error });
      throw new UpstreamError("unreachable", "the upstream chat service could not be reached", { cause: error });
    };

    let finished = false;
    let failure: UpstreamFailure | undefined;
    const observed = (this.options.observer ?? NO_OBSERVER).upstreamCall();
    try {
      let response: IncomingMessage;
      try {
        response = await this.post(
          {
            "Content-Type": "application/json",
            Accept: "text/event-stream",
            "X-Request-Id": request.requestId,
            ...(this.options.token ? { Authorization: `Bearer ${this.options.token}` } : {}),
          },
          JSON.stringify({
            conversation_id: request.conversationId,
            message: request.message,
            history: request.history,
            sources: request.sources,
            ...(request.enabledAgencySources ? { enabled_agency_source_types: request.enabledAgencySources } : {}),
            ...(request.clientSourceType ? { client_source_type: request.clientSourceType } : {}),
            ...(request.loanContext ? { loan_context: request.loanContext } : {}),
          }),
          call,
        );
      } catch (error) {
        return fail(error);
      }
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new UpstreamError("http_status", `the upstream answered HTTP ${status}`);
      }
      if (!(response.headers["content-type"] ?? "").startsWith("text/event-stream")) {
        response.destroy();
        throw new UpstreamError("malformed", "the upstream did not answer with an event stream");
      }
      resetIdle();
      // Not destroyed when the parser stops at `complete`: what follows is drained, so the
      // connection goes back to the keep-alive agent for the next answer (no new TCP or TLS handshake).
      const chunks = (async function* (body: IncomingMessage) {
        for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>) {
          resetIdle();
          yield chunk;
        }
      })(response);
      let completed = false;
      try {
        for await (const data of parseSseData(chunks)) {
          const event = parseEvent(data);
          if (event === undefined) continue;
          yield event;
          if (event.type === "complete") {
            completed = true;
            break;
          }
        }
      } catch (error) {
        fail(error);
      }
      if (!completed) throw new UpstreamError("truncated", "the upstream stream ended before the answer was complete");
      finished = true;
      releaseWhenEnded(response);
    } catch (error) {
      failure = error instanceof UpstreamError ? error.reason : "unreachable";
      throw error;
    } finally {
      // An answer its consumer stopped reading (the client left) ends as cancelled.
      observed(finished ? "completed" : (failure ?? "cancelled"));
      clearTimeout(total);
      clearTimeout(idle);
      request.signal?.removeEventListener("abort", onCallerAbort);
      // A failed or abandoned answer closes the connection; a completed one is drained (releaseWhenEnded).
      if (!finished) stopCall(call);
    }
  }
}

/**
 * One call's request while it runs, and whether it was stopped (its caller gone, a timeout, or
 * the answer abandoned). Not an AbortController given to http.request: Node watches a request's
 * signal through stream.finished, about a kilobyte of listeners and closures per call, which a
 * burst of streams pays a thousand times before its first frames.
 */
interface UpstreamCall {
  request: http.ClientRequest | undefined;
  stopped: boolean;
}

const CALL_STOPPED = "the upstream call was stopped";

/** Stops the call: a request under way is destroyed, one not sent yet is never sent. */
function stopCall(call: UpstreamCall): void {
  if (call.stopped) return;
  call.stopped = true;
  call.request?.destroy(new Error(CALL_STOPPED));
}

/** Idle kept-alive connections to the upstream are closed after this. */
const IDLE_SOCKET_MS = 4_000;

/** A request that failed on a reused connection the other side had closed: safe to send again. */
class StaleConnectionError extends Error {
  constructor(override readonly cause: Error) {
    super("the kept-alive connection was closed by the upstream", { cause });
  }
}

/** How long a completed answer's response may take to end before its connection is closed instead of reused. */
const DRAIN_MS = 1_000;

/** Lets a completed answer's response run to its end, which hands the connection back to the agent; one that does not end soon is closed. */
function releaseWhenEnded(response: IncomingMessage): void {
  if (response.readableEnded || response.destroyed) return;
  const deadline = setTimeout(() => response.destroy(), DRAIN_MS);
  deadline.unref();
  response.once("close", () => clearTimeout(deadline));
  response.resume();
}

/** Checks one event's shape. Unknown types are skipped (forward compatible); an error event fails the answer. */
function parseEvent(data: string): UpstreamEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new UpstreamError("malformed", "the upstream sent an event that is not JSON");
  }
  if (typeof value !== "object" || value === null)
    throw new UpstreamError("malformed", "the upstream sent an event that is not an object");
  const event = value as Record<string, unknown>;
  switch (event.type) {
    case "content":
    case "content_postprocessed":
      if (typeof event.content !== "string")
        throw new UpstreamError("malformed", `the upstream sent a ${event.type} event without content`);
      return event.type === "content"
        ? { type: "content", content: event.content }
        : { type: "content_postprocessed", content: event.content, citations: event.citations, sources: event.sources };
    case "complete": {
      const metadata = (typeof event.metadata === "object" && event.metadata !== null ? event.metadata : {}) as Record<
        string,
        unknown
      >;
      const tokens = metadata.tokens_used ?? metadata.tokensUsed ?? event.tokens_used ?? event.tokensUsed;
      if (typeof tokens !== "number" || !Number.isInteger(tokens) || tokens < 0) {
        throw new UpstreamError("malformed", "the upstream's complete event has no valid tokens_used");
      }
      return { type: "complete", tokensUsed: tokens, citations: event.citations, sources: event.sources };
    }
    case "error":
      throw new UpstreamError("upstream_reported", "the upstream reported an error");
    default:
      return undefined;
  }
}
