import type { EmbeddedOwner } from "../conversations/conversations";
import type { SendMessageInput } from "../conversations/send-message";
import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { getKeyById } from "../keys/authenticate-api-key";
import { NO_OBSERVER, type Observer } from "../observe/observer";
import { countChatAnswer } from "../rate-limits/count-chat-answer";
import { enforceRateLimit, type RateLimitState } from "../rate-limits/rate-limit";
import { takeRateLimitToken } from "../rate-limits/take-rate-limit-token";
import type { ChatAuthority } from "./embed-auth";
import { upstreamLoanContext } from "./loan-context";

/** Whose conversations a chat token reaches: the user's current generation, on the launch's loan. */
export function embeddedOwner(authority: ChatAuthority): EmbeddedOwner {
  return {
    apiKeyId: authority.apiKeyId,
    partnerUserId: authority.partnerUserId,
    generation: authority.accountGeneration,
    launchId: authority.launchId,
    loanId: String(authority.loanContext.external_loan_id ?? ""),
  };
}

/**
 * A hosted-chat message as core's sendMessage input: the conversation belongs to the
 * partner user's current generation; the launch's key supplies the tenant's sources (every
 * enabled agency source, see below); the launch's snapshotted attribution and loan context are
 * recorded with the conversation and each message (they identify the credential and the loan,
 * never authenticate anything).
 */
export async function embeddedMessageInput(
  db: Database,
  authority: ChatAuthority,
  input: { requestId: string; message: string; conversationId?: string | undefined },
  observer: Pick<Observer, "rateLimitRefused"> = NO_OBSERVER,
): Promise<SendMessageInput> {
  const message = input.message.trim();
  if (message.length < 1 || message.length > 4000)
    throw new AppError("invalid_request", "message: must be 1-4000 characters");
  const [key, user] = await Promise.all([
    getKeyById(db, authority.apiKeyId),
    countChatAnswer(db, { partnerUserId: authority.partnerUserId }),
  ]);
  // The user's own limit first: an answer refused there spends nothing of the key's budget,
  // which every user of the partner shares; then the key's, like its API requests.
  enforceRateLimit(user.state, overUserLimit, observer);
  enforceRateLimit(
    await takeRateLimitToken(db, { keyId: key.id, limitPerMinute: key.rateLimitPerMinute }),
    overSharedLimit,
    observer,
  );
  const context = {
    attribution: authority.attribution,
    loan_context: authority.loanContext,
    launch_id: authority.launchId,
  };
  return {
    key,
    requestId: input.requestId,
    message,
    user: { external_user_id: user.externalUserId },
    metadata: context,
    conversationId: input.conversationId,
    newConversation: { metadata: context },
    embedded: embeddedOwner(authority),
    // The hosted chat has no source picker: every agency source the tenant enables is offered,
    // and the loan (its program) tells the upstream which one answers. The tenant's API
    // defaults (baseSources) would leave a VA loan without VA guidelines when VA is enabled
    // but not a default. Buckets and shared sources keep the tenant's defaults.
    searchOptions: { agency_source_types: [...key.tenant.enabledSources] },
    loanContext: upstreamLoanContext(authority.loanContext),
  };
}

/**
 * The two refusals in the words of the person chatting (the page words its own notice from the
 * RateLimit-Policy name): only the first is his doing; the second is a limit he shares.
 */
function overUserLimit(state: RateLimitState): string {
  return `you are sending questions faster than allowed: at most ${state.limit} answers per minute for each user; try again in ${state.resetSeconds}s`;
}

function overSharedLimit(state: RateLimitState): string {
  return `your organization's assistant is busy: the ${state.limit} answers and requests per minute its users share are used up; try again in ${state.resetSeconds}s`;
}
