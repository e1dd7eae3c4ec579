import { getImport, listImports, listTeams, TEAM_STATUSES } from "@mga/core";
import { z } from "zod";
import { router, staffProcedure } from "../../trpc";
import { importToWire } from "../partners/imports/to-wire";
import { teamToWire } from "../partners/teams/to-wire";
import { integrationForStaff } from "./partner-directory";
import { staffCursor, staffId, staffLimit } from "./staff.types";

/** Teams (read only: partners own them through the API), searchable by external id or name. */
export const staffPartnerTeamsRouter = router({
  list: staffProcedure
    .input(
      z.strictObject({
        integration_id: staffId,
        status: z.enum(TEAM_STATUSES).optional(),
        q: z.string().trim().max(128).optional(),
        limit: staffLimit(50),
        cursor: staffCursor,
      }),
    )
    .query(async ({ ctx, input }) => {
      const integration = await integrationForStaff(ctx, input.integration_id);
      const page = await listTeams(ctx.db, integration, { status: input.status, q: input.q, limit: input.limit, cursor: input.cursor, withTotal: true });
      return { teams: page.teams.map(teamToWire), next_cursor: page.nextCursor, total: page.total ?? 0 };
    }),
});

/** Bulk imports with their per-row results (read only: partners start them through the API). */
export const staffPartnerImportsRouter = router({
  list: staffProcedure.input(z.strictObject({ integration_id: staffId, limit: staffLimit(25), cursor: staffCursor })).query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const page = await listImports(ctx.db, integration, { limit: input.limit, cursor: input.cursor });
    return {
      imports: page.imports.map((job) => ({
        job_id: job.id,
        status: job.status,
        total: job.total,
        processed: job.processed,
        failed: job.failed,
        created_at: job.createdAt.toISOString(),
        completed_at: job.completedAt?.toISOString() ?? null,
      })),
      next_cursor: page.nextCursor,
      total: page.total,
    };
  }),

  get: staffProcedure.input(z.strictObject({ integration_id: staffId, job_id: staffId })).query(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    return importToWire(await getImport(ctx.db, integration, input.job_id));
  }),
});
