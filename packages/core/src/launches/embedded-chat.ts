import type { Database } from "../db/database";
import { AppError } from "../errors/app-error";
import { getKeyById } from "../keys/authenticate-api-key";
import type { SendMessageInput } from "../conversations/send-message";
import { enforceRateLimit } from "../rate-limits/rate-limit";
import { takeRateLimitToken } from "../rate-limits/take-rate-limit-token";
import type { EmbeddedOwner } from "../conversations/conversations";
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
 * partner user's current generation; the launch's key supplies the tenant's sources; the
 * launch's snapshotted attribution and loan context are recorded with the conversation and
 * each message (they identify the credential and the loan, never authenticate anything).
 */
export async function embeddedMessageInput(db: Database, authority: ChatAuthority, input: { requestId: string; message: string; conversationId?: string | undefined }): Promise<SendMessageInput> {
  const message = input.message.trim();
  if (message.length < 1 || message.length > 4000) throw new AppError("invalid_request", "message: must be 1-4000 characters");
  const [key, user] = await Promise.all([getKeyById(db, authority.apiKeyId), partnerUserExternalId(db, authority.partnerUserId)]);
  // Embedded answers count against the launch key's rate limit, like its API requests.
  enforceRateLimit(await takeRateLimitToken(db, { keyId: key.id, limitPerMinute: key.rateLimitPerMinute }));
  const context = { attribution: authority.attribution, loan_context: authority.loanContext, launch_id: authority.launchId };
  return {
    key,
    requestId: input.requestId,
    message,
    user: { external_user_id: user.externalUserId },
    metadata: context,
    conversationId: input.conversationId,
    newConversation: { metadata: context },
    embedded: embeddedOwner(authority),
    loanContext: upstreamLoanContext(authority.loanContext),
  };
}

/** The partner's id for the user a chat token names; a row gone meanwhile is a 404 (as Prisma's "not found" was). */
async function partnerUserExternalId(db: Database, partnerUserId: string): Promise<{ externalUserId: string }> {
  const { rows } = await db.sql.query<{ externalUserId: string }>(`SELECT external_user_id AS "externalUserId" FROM partner_users WHERE id = $1`, [partnerUserId]);
  if (!rows[0]) throw new AppError("not_found", "this record no longer exists");
  return rows[0];
}
