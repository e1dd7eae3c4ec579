import { DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE, MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE } from "@mga/core/rate-limits";

import { staffProcedure } from "../../../trpc";
import { chatAnswerLimitsOutput } from "./integrations.types";

/** The service's per-user chat limit (used where an integration sets none) and the largest an integration may set. */
export const chatAnswerLimits = staffProcedure.output(chatAnswerLimitsOutput).query(() => ({
  default_per_user_per_minute: DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE,
  max_per_user_per_minute: MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE,
}));
