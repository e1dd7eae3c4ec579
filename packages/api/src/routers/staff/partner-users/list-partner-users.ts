import { listPartnerUsers } from "@mga/core/partners/users";

import { staffProcedure } from "../../../trpc";
import { userToWire } from "../../partners/users/to-wire";
import { integrationForStaff } from "../partner-directory";
import { listPartnerUsersInput, listPartnerUsersOutput } from "./partner-users.types";

/** Spec 4.10's filters and counts; the counts cover the whole integration. */
export const listStaffPartnerUsers = staffProcedure
  .input(listPartnerUsersInput)
  .output(listPartnerUsersOutput)
  .query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const page = await listPartnerUsers(ctx.db, integration, {
      q: input.q,
      teamExternalId: input.team_external_id,
      unassigned: input.unassigned,
      status: input.status,
      limit: input.limit,
      cursor: input.cursor,
      sort: input.sort,
      withTotal: true,
    });
    const users = page.users.map((user) => ({
      ...userToWire(user),
      contact: page.contacts.get(user.id) ?? { email: "", name: null },
    }));
    return {
      users,
      counts: page.counts,
      next_cursor: page.nextCursor,
      previous_cursor: page.previousCursor,
      total: page.total ?? 0,
    };
  });
