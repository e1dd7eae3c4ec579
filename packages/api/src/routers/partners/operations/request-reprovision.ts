import { requestReprovision as request } from "@mga/core/partners/operations";
import { withIdempotency } from "../../../idempotency/with-idempotency";
import { partnerProcedure } from "../../../trpc";
import { acceptedOperation } from "./accept-operation";
import { operationAcceptedSchema, reprovisionInput, requiredIdempotencyHeader } from "./operations.types";

export const requestReprovision = partnerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/integrations/{integration}/users/{external_user_id}/reprovision",
      tags: ["partner users"],
      summary: "Reprovision a deleted user",
      description:
        "202: a new account generation (account_generation + 1) with new site and chat identities; the user is active with provisioning pending until the operation completes. Earlier generations' conversations stay unreadable. Only for deleted users (else 409 identity_conflict).",
      protect: true,
      requestHeaders: requiredIdempotencyHeader,
    },
    scope: "embed:users:write",
    successStatuses: { 202: "Accepted: the reprovisioning runs in the background; poll GET …/user-operations/{operation_id}" },
    errors: [404, 409],
  })
  .input(reprovisionInput)
  .output(operationAcceptedSchema)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, { route: "POST reprovision", input, status: 202, required: true }, async () => {
      await request({ db: ctx.db, queue: ctx.queue, ...ctx.directory }, ctx.integration, input.external_user_id, { email: input.email, name: input.name });
      return acceptedOperation(ctx, input.external_user_id);
    }),
  );
