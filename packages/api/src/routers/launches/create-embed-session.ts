import { issueLaunch } from "@mga/core/launches";

import { withIdempotency } from "../../idempotency/with-idempotency";
import { apiProcedure } from "../../trpc";
import { idempotencyHeaders } from "../conversations/conversations.types";
import { createEmbedSessionInput, embedSessionSchema } from "./launches.types";

export const createEmbedSession = apiProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/embed-sessions",
      tags: ["launches"],
      summary: "Create a single-use launch URL",
      description:
        "201 with a launch URL whose fragment carries a single-use code valid for two minutes. The key must be bound to the `integration` sent (a launch binding); the user must be provisioned, active and launch-eligible (else 409). Use the URL unchanged. An Idempotency-Key retry returns the same code and expiry.",
      protect: true,
      requestHeaders: idempotencyHeaders,
    },
    scope: "embed:launch",
    successStatuses: {
      201: "The single-use launch URL, valid for two minutes (an Idempotency-Key retry returns the same code and expiry)",
    },
    errors: [409],
  })
  .input(createEmbedSessionInput)
  .output(embedSessionSchema)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, { route: "POST /v1/embed-sessions", input, status: 201 }, async () => {
      const launch = await issueLaunch(ctx.db, {
        key: ctx.key,
        publicName: input.integration,
        externalUserId: input.user.external_user_id,
        loanContext: input.loan_context,
        appUrl: ctx.appUrl,
      });
      ctx.record.launch = { integrationId: launch.integrationId, partnerUserId: launch.partnerUserId };
      return {
        request_id: ctx.requestId,
        launch_id: launch.launchId,
        launch_url: launch.launchUrl,
        expires_at: launch.expiresAt.toISOString(),
      };
    }),
  );
