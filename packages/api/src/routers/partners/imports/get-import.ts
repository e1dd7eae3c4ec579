import { getImport as get } from "@mga/core/partners/imports";

import { partnerProcedure } from "../../../trpc";
import { getImportInput, importResponseSchema } from "./imports.types";
import { importToWire } from "./to-wire";

export const getImport = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/integrations/{integration}/user-imports/{job_id}",
      tags: ["partner users"],
      summary: "Poll an import job",
      protect: true,
    },
    scope: "embed:users:read",
    errors: [404],
  })
  .input(getImportInput)
  .output(importResponseSchema)
  .query(async ({ ctx, input }) => ({
    request_id: ctx.requestId,
    import: importToWire(await get(ctx.db, ctx.integration, input.job_id)),
  }));
