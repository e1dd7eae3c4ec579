import { setTimeout as sleep } from "node:timers/promises";

import { ApiError } from "../errors/api-error";
import { ApiConnectionError, type RequestTarget } from "../errors/connection-errors";
import { StreamResumeError } from "../errors/stream-resume-error";
import type { RetryEvent } from "../http/retry-events";
import { backoffDelayMs, isTransientStatus } from "../http/retry-policy";
import type { ResumeSettings } from "../http/transport";
import type { StreamEvent } from "../types";
import { parseStream } from "./parse-frames";

/** The request a stream's first body comes from: how to stop it, and what to name in an error. */
export interface StreamRequest extends RequestTarget {
  controller: AbortController;
  /** The controller's signal joined with the caller's. */
  signal: AbortSignal;
}

/** What a stream asks of the API after it opened: to go on from a frame, and to stop its answer. */
export interface AnswerEndpoints {
  /** The URL of GET /v1/conversations/{id}/stream, named in retry events and errors before it is requested. */
  resumeUrl(conversationId: string): string;
  /** The conversation's answer after `lastEventId`; a refusal is thrown as its ApiError, a failure to connect as an ApiConnectionError. */
  resume(
    conversationId: string,
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<{ body: ReadableStream<Uint8Array>; url: string }>;
  /** POST /v1/conversations/{id}/cancel. */
  cancel(conversationId: string): Promise<unknown>;
}

/** Why a body stopped before its answer's terminal frame. */
interface Interruption {
  /** reset: the connection failed; ended: the body ended; reconnect: the server asked to resume elsewhere. */
  kind: "reset" | "ended" | "reconnect";
  error: ApiConnectionError;
  framesRead: number;
}

/**
 * The frames of one answer across as many connections as it takes (issue 23): when a body fails,
 * ends without the terminal frame (`public_api_complete` or `error`), or carries `: reconnect`,
 * the answer is requested again after the last frame received (GET /v1/conversations/{id}/stream
 * with Last-Event-ID) and its frames go on as if nothing happened: the service sends exactly the
 * frames after that id. Needs the conversation (from the call or the public_api_conversation frame)
 * and a frame id: a stream lost before its first frame is not resumable (its request, a POST, is
 * never sent twice), and ends as it always did.
 */
export class ResumableFrames {
  /** The `id:` of the last frame read: where a resume starts. */
  lastEventId: string | undefined;
  /** Whether the answer's terminal frame was read. */
  private ended = false;
  private cancelled = false;

  constructor(
    private readonly first: { body: ReadableStream<Uint8Array>; target: RequestTarget },
    private readonly request: StreamRequest,
    private readonly endpoints: AnswerEndpoints,
    private readonly settings: ResumeSettings,
    /** The stream's conversation: known from the call, or from the public_api_conversation frame. */
    public conversationId: string | undefined,
  ) {}

  /** The frames, resumed across lost connections; a cancelled stream ends quietly. */
  async *frames(): AsyncGenerator<StreamEvent> {
    try {
      yield* this.follow();
    } catch (error) {
      if (!this.cancelled) throw error;
    }
  }

  /** Closes the connection (a loop left early); the answer goes on on the service. */
  close(): void {
    this.request.controller.abort();
  }

  /**
   * Closes the connection and stops the answer on the service (POST …/cancel), unless it ended
   * or its conversation is not known yet (a new conversation's first frame not read).
   */
  cancel(): Promise<void> {
    const conversationId = this.ended ? undefined : this.conversationId;
    this.cancelled = true;
    this.close();
    return conversationId === undefined
      ? Promise.resolve()
      : this.endpoints.cancel(conversationId).then(() => undefined);
  }

  private async *follow(): AsyncGenerator<StreamEvent> {
    let { body, target } = this.first;
    let emptyResumes = 0;
    for (;;) {
      const interruption = yield* this.read(body, target);
      if (!interruption) return;
      if (interruption.framesRead > 0) emptyResumes = 0;
      const { conversationId, lastEventId } = this;
      if (conversationId === undefined || lastEventId === undefined || this.settings.maxResumes === 0) {
        // Not resumable: as before resuming existed, a failed connection is thrown, an ended body ends the loop.
        if (interruption.kind === "reset") throw interruption.error;
        return;
      }
      ({ body, target, emptyResumes } = await this.resume(
        conversationId,
        lastEventId,
        interruption.error,
        emptyResumes,
      ));
    }
  }

  /**
   * Requests the answer again after `lastEventId`, after a back-off, as many times as the resumes
   * in a row without a frame (`emptyResumes` so far) allow; a refusal other than 429, 502 or 503
   * is thrown as it is, running out of resumes as a StreamResumeError.
   */
  private async resume(
    conversationId: string,
    lastEventId: string,
    interruption: ApiConnectionError,
    emptyResumes: number,
  ) {
    const url = this.endpoints.resumeUrl(conversationId);
    let failure: ApiConnectionError | ApiError = interruption;
    for (let attempt = emptyResumes + 1; ; attempt++) {
      if (attempt > this.settings.maxResumes)
        throw new StreamResumeError({
          method: "GET",
          url,
          conversationId,
          lastEventId,
          attempts: attempt - 1,
          cause: failure,
        });
      const delayMs = this.delayBefore(attempt, failure);
      this.settings.onResume({ attempt, delayMs, reason: reasonOf(failure), method: "GET", url, lastEventId });
      await sleep(delayMs, undefined, { signal: this.request.signal });
      try {
        const resumed = await this.endpoints.resume(conversationId, lastEventId, this.request.signal);
        return { body: resumed.body, target: { method: "GET", url: resumed.url }, emptyResumes: attempt };
      } catch (error) {
        if (this.request.signal.aborted || !isResumable(error)) throw error;
        failure = error;
      }
    }
  }

  /** One body's frames, noting each one's id and what it tells of the answer; then why it stopped, unless at the answer's end. */
  private async *read(
    body: ReadableStream<Uint8Array>,
    target: RequestTarget,
  ): AsyncGenerator<StreamEvent, Interruption | undefined> {
    let framesRead = 0;
    try {
      for await (const item of parseStream(body)) {
        if (item.kind === "reconnect") {
          return {
            kind: "reconnect",
            framesRead,
            error: new ApiConnectionError({
              ...target,
              message: `The server of ${target.method} ${target.url} is restarting and asked to resume the stream`,
            }),
          };
        }
        const { id, frame } = item;
        if (id !== undefined) this.lastEventId = id;
        if (frame.type === "public_api_conversation") this.conversationId = frame.conversation_id;
        if (frame.type === "public_api_complete" || frame.type === "error") this.ended = true;
        framesRead += 1;
        yield frame;
      }
    } catch (error) {
      // The caller's abort is theirs to recognize; fetch's network failures are TypeErrors (Fetch standard).
      if (this.request.signal.aborted || !(error instanceof TypeError)) throw error;
      if (this.ended) return undefined;
      return { kind: "reset", framesRead, error: new ApiConnectionError({ ...target, cause: error }) };
    }
    if (this.ended) return undefined;
    return {
      kind: "ended",
      framesRead,
      error: new ApiConnectionError({
        ...target,
        message: `The event stream of ${target.method} ${target.url} ended before the answer's last frame`,
      }),
    };
  }

  /** The wait before the `resume`th resume: the Retry-After of the last refusal (a 429, a draining server's 503; thrown when longer than the SDK waits), else the jittered back-off. */
  private delayBefore(resume: number, failure: ApiConnectionError | ApiError): number {
    if (failure instanceof ApiError && failure.retryAfterSeconds !== undefined) {
      const asked = failure.retryAfterSeconds * 1000;
      if (asked > this.settings.retry.maxDelayMs) throw failure;
      return asked;
    }
    return backoffDelayMs(resume - 1, this.settings.retry);
  }
}

/** Whether a failed resume may be tried again: the service unreachable, busy or rate-limited; any other refusal is final. */
function isResumable(error: unknown): error is ApiConnectionError | ApiError {
  if (error instanceof ApiConnectionError) return true;
  return error instanceof ApiError && (error.status === 429 || isTransientStatus(error.status));
}

/** A retry event's reason: the status answered, or the connection error. */
function reasonOf(failure: ApiConnectionError | ApiError): RetryEvent["reason"] {
  return failure instanceof ApiError ? failure.status : failure;
}
