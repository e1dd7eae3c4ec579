export { startLocalAssistant, type LocalAssistant } from "./assistant-server";
export { answerQuestion, type Question } from "./answer-question";
export { CorpusIndex, type SearchHit } from "./corpus-index";
export { composeAnswer, type ComposedAnswer } from "./compose-answer";
export { SAMPLE_CORPUS, type SamplePassage } from "./sample-corpus";
