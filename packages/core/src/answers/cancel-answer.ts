import { AppError } from "../errors/app-error";
import type { AnswerStreams } from "./answer-streams";
import type { AnswerStreamStatus } from "./answer-values";

/**
 * POST …/cancel: stops the conversation's newest streamed answer wherever it is generated (the
 * generating instance aborts its upstream call and stores the partial answer as incomplete,
 * `error_code: cancelled`; its stream ends with the terminal error frame). `stopping` is false
 * when the answer had already ended: nothing to stop, its status says how it ended.
 */
export async function cancelNewestAnswer(
  streams: AnswerStreams,
  conversationId: string,
): Promise<{ messageId: string; status: AnswerStreamStatus; stopping: boolean }> {
  const answer = await streams.latest(conversationId);
  if (!answer) throw new AppError("not_found", "this conversation has no streamed answer to cancel");
  if (answer.status === "generating" && (await streams.cancel(answer.id)))
    return { messageId: answer.messageId, status: "generating", stopping: true };
  // Ended before it could be stopped: as it ended.
  const ended = (await streams.find(answer.id)) ?? answer;
  return { messageId: ended.messageId, status: ended.status, stopping: false };
}
