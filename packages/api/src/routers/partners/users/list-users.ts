import { listPartnerUsers } from "@mga/core/partners/users";

import { partnerProcedure } from "../../../trpc";
import { userToWire } from "./to-wire";
import { listUsersInput, listUsersOutput } from "./users.types";

export const listUsers = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/integrations/{integration}/users",
      tags: ["partner users"],
      summary: "List users",
      description:
        "Filters combine with AND. `q` (part of an external user id) cannot be combined with `external_user_id`, nor `unassigned` with `team_external_id`; email addresses are refused. Deleted users only with status=deleted. `counts` covers the whole integration.",
      protect: true,
    },
    scope: "embed:users:read",
  })
  .input(listUsersInput)
  .output(listUsersOutput)
  .query(async ({ ctx, input }) => {
    const page = await listPartnerUsers(ctx.db, ctx.integration, {
      teamExternalId: input.team_external_id,
      externalUserId: input.external_user_id,
      q: input.q,
      unassigned: input.unassigned,
      status: input.status,
      limit: input.limit,
      cursor: input.cursor,
    });
    return {
      request_id: ctx.requestId,
      users: page.users.map(userToWire),
      counts: page.counts,
      next_cursor: page.nextCursor,
    };
  });
