import { getIntegrationById, updateIntegration } from "@mga/core/partners/integrations";

import { integrationToOperatorView } from "../../../operator/operator-views";
import { adminProcedure } from "../../../trpc";
import { auditedStaffChange } from "../audit-action";
import { integrationViewSchema, setChatAnswerLimitInput } from "./integrations.types";

/** Hosted-chat answers each of the integration's users may get per minute; null returns it to the service default. */
export const setChatAnswerLimit = adminProcedure
  .input(setChatAnswerLimitInput)
  .output(integrationViewSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await getIntegrationById(ctx.db, input.id);
    const integration = await auditedStaffChange(
      ctx,
      (tx) =>
        updateIntegration(tx, {
          organizationId: current.organizationId,
          slug: current.slug,
          chatAnswersPerUserPerMinute: input.chat_answers_per_user_per_minute,
        }),
      (changed) => ({
        action: "integration.chat_answer_limit",
        target: changed.id,
        details: {
          chat_answers_per_user_per_minute: changed.chatAnswersPerUserPerMinute,
          previous: current.chatAnswersPerUserPerMinute,
        },
      }),
    );
    return integrationToOperatorView(integration);
  });
