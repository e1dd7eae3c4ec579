import { requestProfileChange as request } from "@mga/core/partners/operations";
import { withIdempotency } from "../../../idempotency/with-idempotency";
import { partnerProcedure } from "../../../trpc";
import { acceptedOperation } from "./accept-operation";
import { operationAcceptedSchema, profileChangeInput, requiredIdempotencyHeader } from "./operations.types";

export const requestProfileChange = partnerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/integrations/{integration}/users/{external_user_id}/profile-changes",
      tags: ["partner users"],
      summary: "Change a user's email and/or name",
      description:
        "202 with the operation. Send email, name or both; a change that leaves both as they are is 400 (nothing to change). Partner-created identities are updated directly. For a pre-existing account an email change waits for verification at the new address (verification_pending; the old profile stays active); a name-only change needs an audited staff override (409 identity_conflict).",
      protect: true,
      requestHeaders: requiredIdempotencyHeader,
    },
    scope: "embed:users:write",
    successStatuses: { 202: "Accepted: the change runs in the background; poll GET …/user-operations/{operation_id}" },
    errors: [404, 409],
  })
  .input(profileChangeInput)
  .output(operationAcceptedSchema)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, { route: "POST profile-changes", input, status: 202, required: true }, async () => {
      await request({ db: ctx.db, queue: ctx.queue, ...ctx.directory }, ctx.integration, input.external_user_id, { email: input.email, name: input.name });
      return acceptedOperation(ctx, input.external_user_id);
    }),
  );
