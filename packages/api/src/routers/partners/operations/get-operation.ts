import { getOperation as get } from "@mga/core/partners/operations";

import { partnerProcedure } from "../../../trpc";
import { getOperationInput, getOperationOutput } from "./operations.types";
import { operationToWire } from "./to-wire";

export const getOperation = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/integrations/{integration}/user-operations/{operation_id}",
      tags: ["partner users"],
      summary: "Poll a lifecycle operation",
      protect: true,
    },
    scope: "embed:users:read",
    errors: [404],
  })
  .input(getOperationInput)
  .output(getOperationOutput)
  .query(async ({ ctx, input }) => ({
    request_id: ctx.requestId,
    operation: operationToWire(await get(ctx.db, ctx.integration, input.operation_id)),
  }));
