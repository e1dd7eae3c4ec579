import { requestDeletion as request } from "@mga/core/partners/operations";
import { withIdempotency } from "../../../idempotency/with-idempotency";
import { partnerProcedure } from "../../../trpc";
import { acceptedOperation } from "./accept-operation";
import { deletionInput, operationAcceptedSchema, requiredIdempotencyHeader } from "./operations.types";

export const requestDeletion = partnerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/integrations/{integration}/users/{external_user_id}/deletions",
      tags: ["partner users"],
      summary: "Delete a user",
      description:
        "202: access is cut at once (status disabled), then the deletion completes asynchronously (status deleted); poll the operation. No notification is sent to the user. A deletion already under way is returned as is.",
      protect: true,
      requestHeaders: requiredIdempotencyHeader,
    },
    scope: "embed:users:delete",
    successStatuses: { 202: "Accepted: the deletion runs in the background; poll GET …/user-operations/{operation_id}" },
    errors: [404, 409],
  })
  .input(deletionInput)
  .output(operationAcceptedSchema)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, { route: "POST deletions", input, status: 202, required: true }, async () => {
      await request({ db: ctx.db, queue: ctx.queue, ...ctx.directory }, ctx.integration, input.external_user_id, { note: input.note });
      return acceptedOperation(ctx, input.external_user_id);
    }),
  );
