export { startLocalAssistant, type LocalAssistant } from "./assistant-server";
export { loadSampleCorpus, searchPassages, type RetrievedPassage } from "./corpus-store";
export { composeAnswer } from "./compose-answer";
export { SAMPLE_CORPUS, type SamplePassage } from "./sample-corpus";
