import { applyProfileOverride } from "@mga/core/partners/operations";

import { adminProcedure } from "../../../trpc";
import { operationSchema } from "../../partners/operations/operations.types";
import { operationToWire } from "../../partners/operations/to-wire";
import { integrationForStaff, operationDeps } from "../partner-directory";
import { overrideProfileInput } from "./partner-users.types";

/** Audited by core with the reason (spec 3.3): an email change without verification, or a name change. */
export const overrideProfile = adminProcedure
  .input(overrideProfileInput)
  .output(operationSchema)
  .mutation(async ({ ctx, input }) => {
    const integration = await integrationForStaff(ctx, input.integration_id);
    const operation = await applyProfileOverride(operationDeps(ctx), integration, input.external_user_id, {
      email: input.email,
      name: input.name,
      reason: input.reason,
      actor: ctx.staff.email,
    });
    return operationToWire(operation);
  });
