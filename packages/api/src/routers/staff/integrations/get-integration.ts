import { getIntegrationById } from "@mga/core/partners/integrations";

import { integrationToOperatorView } from "../../../operator/operator-views";
import { staffProcedure } from "../../../trpc";
import { integrationIdInput, integrationViewSchema } from "./integrations.types";

export const getStaffIntegration = staffProcedure
  .input(integrationIdInput)
  .output(integrationViewSchema)
  .query(async ({ ctx, input }) => integrationToOperatorView(await getIntegrationById(ctx.db, input.id)));
