import { listOutbox } from "@mga/core/local-site";

import { staffProcedure } from "../../../trpc";
import { listOutboxInput, listOutboxOutput } from "./outbox.types";

export const listStaffOutbox = staffProcedure
  .input(listOutboxInput)
  .output(listOutboxOutput)
  .query(async ({ ctx, input }) => {
    const page = await listOutbox(ctx.db, { ...input, withTotal: true });
    return {
      notifications: page.notifications.map((row) => ({
        id: row.id,
        kind: row.kind,
        recipient: row.recipient,
        created_at: row.createdAt.toISOString(),
        used: row.used,
        // A live password-setup link lets whoever holds it set the account's password: admins only.
        link: row.linkPath && ctx.staff.role === "admin" ? `${ctx.appUrl.replace(/\/+$/, "")}${row.linkPath}` : null,
        link_hidden: row.linkPath !== null && ctx.staff.role !== "admin",
      })),
      next_cursor: page.nextCursor,
      previous_cursor: page.previousCursor,
      total: page.total ?? 0,
    };
  });
