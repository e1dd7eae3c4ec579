import { listPartnerUserConversations } from "@mga/core/conversations";
import { getPartnerUser } from "@mga/core/partners/users";

import { staffProcedure } from "../../../trpc";
import { integrationForStaff } from "../partner-directory";
import { listUserConversationsInput, listUserConversationsOutput } from "./partner-users.types";

/** A partner user's hosted-chat conversations, most recently active first (each opens in its key's conversation view). */
export const listStaffUserConversations = staffProcedure
  .input(listUserConversationsInput)
  .output(listUserConversationsOutput)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const user = await getPartnerUser(ctx.db, integration, input.external_user_id);
    const page = await listPartnerUserConversations(ctx.db, user.id, { limit: input.limit, cursor: input.cursor });
    return {
      conversations: page.conversations.map((conversation) => ({
        id: conversation.id,
        key_id: conversation.apiKeyId,
        key_name: conversation.keyName,
        title: conversation.title,
        external_loan_id: conversation.externalLoanId,
        account_generation: conversation.accountGeneration,
        message_count: conversation.messageCount,
        created_at: conversation.createdAt.toISOString(),
        updated_at: conversation.updatedAt.toISOString(),
      })),
      next_cursor: page.nextCursor,
      previous_cursor: page.previousCursor,
      total: page.total,
    };
  });
