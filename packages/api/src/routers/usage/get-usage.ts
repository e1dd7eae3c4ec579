import { readUsage, usageRange } from "@mga/core/usage";

import { apiProcedure } from "../../trpc";
import { getUsageInput, getUsageOutput, usageToWire } from "./usage.types";

export const getUsage = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/usage",
      tags: ["usage"],
      summary: "Your organization's usage per day",
      description:
        "Requests by route group and status class, answers (streamed and JSON), `tokens_used`, upstream errors and rate-limited requests per UTC day, for every key of the key's own organization (or one of them, `key_id`), and launches and active partner users per integration. Counts are written within a few seconds of a request, exact across the service's instances, and kept at least 400 days. Needs `chat:read`.",
      protect: true,
    },
    scope: "chat:read",
  })
  .input(getUsageInput)
  .output(getUsageOutput)
  .query(async ({ ctx, input }) => {
    const range = usageRange(input);
    const report = await readUsage(ctx.db, {
      ...range,
      organizationId: ctx.key.organizationId,
      apiKeyId: input.key_id,
    });
    return { request_id: ctx.requestId, ...usageToWire(report) };
  });
