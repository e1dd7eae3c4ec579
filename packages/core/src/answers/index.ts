// @mga/core/answers: what the rest of the service may use of this area; everything else is internal.
export { ANSWER_STREAM_STATUSES, type AnswerStreamStatus } from "./answer-values";
export {
  AnswerStreams,
  type AnswerStreamsOptions,
  answerStreamsOf,
  startAnswerStreams,
  stopAnswerStreams,
} from "./answer-streams";
export { pruneAnswerStreams } from "./answer-store";
export { cancelNewestAnswer } from "./cancel-answer";
export type { AnswerStreamRow } from "./answer-store";
export { FRAME_ID_PATTERN, frameId, parseFrameId } from "./frame-id";
export { type GeneratingAnswer, generatingAnswers } from "./generating-answers";
export { type AnswerFrame, type AnswerIdentity, LiveAnswer } from "./live-answer";
