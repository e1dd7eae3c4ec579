import type { Transport } from "../http/transport";
import { MessageStream } from "../streaming/message-stream";
import { ResumableFrames } from "../streaming/resumable-frames";
import { answerEndpoints } from "./answer-requests";

export interface StreamCallOptions {
  /** Aborting it closes the stream's connection, like leaving the loop (the answer goes on: `cancel()` stops it). */
  signal?: AbortSignal;
}

export interface ResumeOptions extends StreamCallOptions {
  /** The `lastEventId` of the stream to continue: the frames after it come. Without it, the conversation's newest answer from its first frame. */
  lastEventId?: string | undefined;
}

/**
 * Sends a stream's request and returns its MessageStream once the response's status is known: a
 * refusal before the first frame (400, 401, 429 after the retries…) is thrown as an ApiError here.
 * `conversationId` is the answer's conversation when the call names it (a new one's comes in its
 * first frame): what the stream resumes and cancels.
 */
export async function openMessageStream(
  transport: Transport,
  call: StreamCallOptions & { method: "GET" | "POST"; conversationId: string | undefined },
  send: (signal: AbortSignal) => Promise<{ body: ReadableStream<Uint8Array>; url: string }>,
): Promise<MessageStream> {
  const controller = new AbortController();
  const signal = call.signal ? AbortSignal.any([call.signal, controller.signal]) : controller.signal;
  const { body, url } = await send(signal);
  const request = { controller, signal, method: call.method, url };
  return new MessageStream(
    new ResumableFrames(
      { body, target: request },
      request,
      answerEndpoints(transport),
      transport.resumes,
      call.conversationId,
    ),
  );
}
