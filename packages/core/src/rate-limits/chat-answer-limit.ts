import { AppError } from "../errors/app-error";

/**
 * Hosted-chat answers one partner user may get per minute when the integration sets none. A
 * person reads each streamed answer before asking again, so 20 leaves room for quick follow-ups
 * and retries; yet one user (or a script holding his chat token) can take at most 1/30 of a
 * launch key's default 600, and the partner's other users keep getting answers and launches.
 */
export const DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE = 20;

/** The default key budget: no person asks faster, and a share as large as the key's own limit protects no one. */
export const MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE = 600;

/** An integration's setting: null is the default. */
export function assertChatAnswersPerUser(value: number | null): void {
  if (value !== null && (!Number.isInteger(value) || value < 1 || value > MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE)) {
    throw new AppError(
      "invalid_request",
      `Chat answers per user per minute must be a whole number from 1 to ${MAX_CHAT_ANSWERS_PER_USER_PER_MINUTE} (or the default, ${DEFAULT_CHAT_ANSWERS_PER_USER_PER_MINUTE}).`,
      { field: "chat_answers_per_user_per_minute" },
    );
  }
}
