import { createImport as create } from "@mga/core/partners/imports";

import { withIdempotency } from "../../../idempotency/with-idempotency";
import { partnerProcedure } from "../../../trpc";
import { requiredIdempotencyHeader } from "../operations/operations.types";
import { createImportInput, importResponseSchema } from "./imports.types";
import { importToWire } from "./to-wire";

export const createImport = partnerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/integrations/{integration}/user-imports",
      tags: ["partner users"],
      summary: "Import up to 1,000 users",
      description:
        "202 with a job to poll. Provisioning and identity matching only (as PUT user, row by row); each row gets an outcome (created, existing, pending, failed with its error). At most 1,000 users with unique external_user_id, else 400.",
      protect: true,
      requestHeaders: requiredIdempotencyHeader,
    },
    scope: "embed:users:write",
    successStatuses: { 202: "Accepted: the import runs in the background; poll GET …/user-imports/{job_id}" },
    errors: [409],
  })
  .input(createImportInput)
  .output(importResponseSchema)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, { route: "POST user-imports", input, status: 202, required: true }, async () => {
      const created = await create({ db: ctx.db, queue: ctx.queue }, ctx.integration, input.users);
      return { request_id: ctx.requestId, import: importToWire(created) };
    }),
  );
