import { getPartnerUser } from "@mga/core/partners/users";

import { partnerProcedure } from "../../../trpc";
import { userToWire } from "./to-wire";
import { userPathInput, userResponseSchema } from "./users.types";

export const getUser = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/integrations/{integration}/users/{external_user_id}",
      tags: ["partner users"],
      summary: "A user's sanitized current state",
      protect: true,
    },
    scope: "embed:users:read",
    errors: [404],
  })
  .input(userPathInput)
  .output(userResponseSchema)
  .query(async ({ ctx, input }) => ({
    request_id: ctx.requestId,
    user: userToWire(await getPartnerUser(ctx.db, ctx.integration, input.external_user_id)),
  }));
