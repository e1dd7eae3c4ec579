import { ApiError } from "../errors/api-error";
import { MessageStream } from "../streaming/message-stream";

export interface StreamCallOptions {
  /** Aborting it stops the stream and the request, like leaving the loop. */
  signal?: AbortSignal;
}

/**
 * Sends a streamed message and returns its MessageStream once the response's status is known:
 * a refusal before the first frame (400, 401, 429 after the retries…) is thrown as an ApiError here.
 */
export async function openMessageStream(
  options: StreamCallOptions,
  send: (signal: AbortSignal) => Promise<{ data?: ReadableStream<Uint8Array> | null; error?: unknown; response: Response }>,
): Promise<MessageStream> {
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const { data, error, response } = await send(signal);
  if (!response.ok) throw ApiError.fromResponse(response, error);
  if (!data) throw new ApiError({ status: 502, code: "upstream_error", message: "The API answered a streamed message without a body", requestId: response.headers.get("x-request-id") ?? undefined });
  // Every streamed call is a POST; the response's URL is the one the request went to.
  return new MessageStream(data, { controller, signal, method: "POST", url: response.url });
}
