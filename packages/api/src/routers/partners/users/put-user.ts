import { provisionPartnerUser } from "@mga/core/partners/users";

import { partnerProcedure } from "../../../trpc";
import { userToWire } from "./to-wire";
import { putUserInput, userResponseSchema } from "./users.types";

const STATUS_OF = { created: 201, existing: 200, pending: 202 } as const;

export const putUser = partnerProcedure
  .meta({
    openapi: {
      method: "PUT",
      path: "/v1/integrations/{integration}/users/{external_user_id}",
      tags: ["partner users"],
      summary: "Provision or match a user",
      description:
        "201: new user, provisioned. 200: existing user (team assignment applied). 202: provisioning still pending (can_launch false). 409 identity_conflict: a different email for an existing user, or a deleted user. team_not_found (404) / team_archived (409) for an unusable team.",
      protect: true,
    },
    scope: "embed:users:write",
    successStatuses: {
      200: "An existing user (a team assignment sent is applied)",
      201: "A new user, provisioned",
      202: "Provisioning is still pending (launch_eligibility.can_launch is false); the service completes it in the background",
    },
    errors: [404, 409],
  })
  .input(putUserInput)
  .output(userResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const { user, outcome } = await provisionPartnerUser(
      { db: ctx.db, queue: ctx.queue, ...ctx.directory },
      ctx.integration,
      input.external_user_id,
      {
        email: input.email,
        name: input.name,
        teamExternalId: input.team_external_id,
      },
    );
    ctx.response.status = STATUS_OF[outcome];
    return { request_id: ctx.requestId, user: userToWire(user) };
  });
