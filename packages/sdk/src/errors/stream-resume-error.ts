import { ApiConnectionError } from "./connection-errors";
import { nameErrorClass } from "./mga-error";

/**
 * A stream lost its connection and could not be resumed within `maxStreamResumes` attempts in a
 * row. A connection error (a subclass of ApiConnectionError, what a lost stream was before); the
 * answer itself goes on being generated and stored on the service: `conversationId` and
 * `lastEventId` are what `client.conversations.resume()` takes to continue it later.
 */
export class StreamResumeError extends ApiConnectionError {
  static {
    nameErrorClass(this, "StreamResumeError");
  }
  readonly conversationId: string;
  readonly lastEventId: string;
  /** The resumes tried in a row without a frame. */
  readonly attempts: number;

  constructor(init: {
    method: string;
    url: string;
    conversationId: string;
    lastEventId: string;
    attempts: number;
    cause: unknown;
  }) {
    const reason = init.cause instanceof Error ? init.cause.message : String(init.cause);
    super({
      ...init,
      message: `The stream of conversation ${init.conversationId} could not be resumed after ${init.attempts} attempts (last event id ${init.lastEventId}): ${reason}. Resume it later with client.conversations.resume(conversationId, { lastEventId })`,
    });
    this.conversationId = init.conversationId;
    this.lastEventId = init.lastEventId;
    this.attempts = init.attempts;
  }
}
