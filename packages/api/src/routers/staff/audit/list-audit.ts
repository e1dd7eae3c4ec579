import { listAudit } from "@mga/core/audit";

import { staffProcedure } from "../../../trpc";
import { listAuditInput, listAuditOutput } from "./audit.types";

/** Filters by a part of the actor and by an action prefix, newest first. */
export const listStaffAudit = staffProcedure
  .input(listAuditInput)
  .output(listAuditOutput)
  .query(async ({ ctx, input }) => {
    const page = await listAudit(ctx.db, { ...input, withTotal: true });
    return {
      entries: page.entries.map((entry) => ({
        id: entry.id,
        actor: entry.actor,
        action: entry.action,
        target: entry.target,
        organization: entry.organization,
        details: entry.details,
        created_at: entry.createdAt.toISOString(),
      })),
      next_cursor: page.nextCursor,
      previous_cursor: page.previousCursor,
      total: page.total ?? 0,
    };
  });
