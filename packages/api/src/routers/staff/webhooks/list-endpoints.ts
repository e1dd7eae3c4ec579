import { EVENT_TYPES, listWebhookEndpoints } from "@mga/core/webhooks";

import { staffProcedure } from "../../../trpc";
import { endpointToView } from "./to-view";
import { listEndpointsOutput, organizationInput } from "./webhooks.types";

export const listEndpoints = staffProcedure
  .input(organizationInput)
  .output(listEndpointsOutput)
  .query(async ({ ctx, input }) => ({
    endpoints: (await listWebhookEndpoints(ctx.db, input.organization_id)).map(endpointToView),
    event_types: [...EVENT_TYPES],
  }));
