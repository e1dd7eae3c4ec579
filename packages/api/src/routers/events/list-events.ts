import { listEvents as listStoredEvents } from "@mga/core/webhooks";

import { apiProcedure } from "../../trpc";
import { listEventsInput, listEventsOutput } from "./events.types";
import { eventToWire } from "./to-wire";

export const listEvents = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/events",
      tags: ["events"],
      summary: "List events",
      description:
        "The organization's events of the last 30 days, newest first, for catching up after downtime (the same bodies webhooks deliver). Filters combine with AND. Events about another organization are never listed.",
      protect: true,
    },
    scope: "embed:users:read",
  })
  .input(listEventsInput)
  .output(listEventsOutput)
  .query(async ({ ctx, input }) => {
    const page = await listStoredEvents(ctx.db, {
      organizationId: ctx.key.organizationId,
      types: input.type ? [input.type] : undefined,
      integration: input.integration,
      createdAfter: input.created_after ? new Date(input.created_after) : undefined,
      createdBefore: input.created_before ? new Date(input.created_before) : undefined,
      limit: input.limit,
      cursor: input.cursor,
    });
    return { request_id: ctx.requestId, events: page.events.map(eventToWire), next_cursor: page.nextCursor };
  });
