import { z } from "zod";

import { MAX_USAGE_RANGE_DAYS, USAGE_STATUS_CLASSES, type UsageCounts, type UsageReport } from "@mga/core/usage";

import { requestIdField } from "../../schemas/common";

const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date, YYYY-MM-DD");

export const getUsageInput = z.strictObject({
  from: daySchema
    .meta({ description: "First UTC day, inclusive (YYYY-MM-DD). Default: `days` days before `to`." })
    .optional(),
  to: daySchema.meta({ description: "Last UTC day, inclusive (YYYY-MM-DD). Default: today (UTC)." }).optional(),
  days: z
    .int()
    .min(1)
    .max(MAX_USAGE_RANGE_DAYS)
    .meta({
      description: `When \`from\` is not sent: how many days up to \`to\` (default 30, at most ${MAX_USAGE_RANGE_DAYS}).`,
    })
    .optional(),
  key_id: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: "Only this key of your organization (another organization's key reads zero)." })
    .optional(),
});

const countsShape = {
  requests: z.int().min(0).meta({
    description: "Requests counted against a key (a request refused before its key was known is not counted).",
  }),
  streamed_answers: z.int().min(0).meta({ description: "Answers completed as event streams." }),
  json_answers: z.int().min(0).meta({ description: "Answers returned as JSON." }),
  tokens_used: z.int().min(0).meta({ description: "The answers' `tokens_used`, summed." }),
  upstream_errors: z
    .int()
    .min(0)
    .meta({ description: "Requests that ended with `upstream_error` (a 502, or a stream's terminal error frame)." }),
  rate_limited: z.int().min(0).meta({ description: "Requests refused with 429 `rate_limited`." }),
  by_route_group: z.record(z.string(), z.int().min(0)).meta({
    description:
      "Requests per route group (the operation's tag: `conversations`, `keys`, `sources`, `launches`, `partner users`, `partner teams`).",
  }),
  by_status_class: z.strictObject(
    Object.fromEntries(USAGE_STATUS_CLASSES.map((name) => [name, z.int().min(0)])) as Record<
      (typeof USAGE_STATUS_CLASSES)[number],
      z.ZodInt
    >,
  ),
};

export const usageCountsSchema = z.strictObject(countsShape).meta({ id: "UsageCounts" });
export const usageDaySchema = z.strictObject({ date: daySchema, ...countsShape }).meta({ id: "UsageDay" });
export const integrationUsageSchema = z
  .strictObject({
    integration: z.string().meta({ description: "The integration's slug." }),
    launches: z.int().min(0),
    active_users: z.int().min(0).meta({ description: "Distinct partner users launched in the range." }),
    days: z
      .array(z.strictObject({ date: daySchema, launches: z.int().min(0), active_users: z.int().min(0) }))
      .meta({ description: "Days with at least one launch." }),
  })
  .meta({ id: "IntegrationUsage" });

const reportShape = {
  from: daySchema,
  to: daySchema,
  days: z
    .array(usageDaySchema)
    .meta({ description: "Every UTC day of the range, oldest first (days without a request at zero)." }),
  totals: usageCountsSchema,
  integrations: z.array(integrationUsageSchema).meta({
    description: "Launches and active partner users per integration of your organization (empty with `key_id`).",
  }),
};

/** A usage report as the console reads it (staff routes). */
export const usageReportSchema = z.strictObject(reportShape);
export const getUsageOutput = z
  .strictObject({ request_id: requestIdField, ...reportShape })
  .meta({ id: "UsageResponse" });

/** Core's counts as they are sent. */
export function countsToWire(counts: UsageCounts) {
  return {
    requests: counts.requests,
    streamed_answers: counts.streamedAnswers,
    json_answers: counts.jsonAnswers,
    tokens_used: counts.tokensUsed,
    upstream_errors: counts.upstreamErrors,
    rate_limited: counts.rateLimited,
    by_route_group: counts.byRouteGroup,
    by_status_class: counts.byStatusClass,
  };
}

export function usageToWire(report: UsageReport) {
  return {
    from: report.from,
    to: report.to,
    days: report.days.map((day) => ({ date: day.date, ...countsToWire(day) })),
    totals: countsToWire(report.totals),
    integrations: report.integrations.map((integration) => ({
      integration: integration.slug,
      launches: integration.launches,
      active_users: integration.activeUsers,
      days: integration.days.map((day) => ({ date: day.date, launches: day.launches, active_users: day.activeUsers })),
    })),
  };
}
