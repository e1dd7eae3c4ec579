import { setPartnerUserStatus } from "@mga/core/partners/users";

import { partnerProcedure } from "../../../trpc";
import { userToWire } from "./to-wire";
import { patchUserInput, userResponseSchema } from "./users.types";

export const patchUser = partnerProcedure
  .meta({
    openapi: {
      method: "PATCH",
      path: "/v1/integrations/{integration}/users/{external_user_id}",
      tags: ["partner users"],
      summary: "Disable or reactivate a user",
      description:
        "Disabling revokes the user's grants and sessions at once. A deleted user cannot be reactivated (409 identity_conflict).",
      protect: true,
    },
    scope: "embed:users:write",
    errors: [404, 409],
  })
  .input(patchUserInput)
  .output(userResponseSchema)
  .mutation(async ({ ctx, input }) => ({
    request_id: ctx.requestId,
    user: userToWire(
      await setPartnerUserStatus(
        { db: ctx.db, ...ctx.directory, queue: ctx.queue },
        ctx.integration,
        input.external_user_id,
        input.status,
      ),
    ),
  }));
