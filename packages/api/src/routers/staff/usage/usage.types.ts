import { z } from "zod";

import { MAX_USAGE_RANGE_DAYS, USAGE_STATUS_CLASSES } from "@mga/core/usage";

import { usageReportSchema } from "../../usage/usage.types";
import { countSchema, staffCursor, staffId, staffLimit } from "../staff.types";

/** The console's charts show the last 30 or 90 days; any range up to what usage keeps is accepted. */
export const usageDaysInput = z.int().min(1).max(MAX_USAGE_RANGE_DAYS).default(30);

export const organizationUsageInput = z.strictObject({ organization_id: staffId, days: usageDaysInput });
export const keyUsageInput = z.strictObject({ key_id: staffId, days: usageDaysInput });
export const usageOverviewInput = z.strictObject({ days: usageDaysInput });

export const staffUsageOutput = usageReportSchema;

export const usageOverviewOutput = z.strictObject({
  from: z.string(),
  to: z.string(),
  organizations: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      requests: countSchema,
      answers: countSchema,
      tokens_used: countSchema,
      upstream_errors: countSchema,
      rate_limited: countSchema,
    }),
  ),
});

/** The request log's filters: an exact status or a class, a route template, a time window. */
export const requestLogInput = z.strictObject({
  organization_id: staffId,
  key_id: staffId.optional(),
  status: z.union([z.int().min(100).max(599), z.enum(USAGE_STATUS_CLASSES)]).optional(),
  route: z.string().trim().min(1).max(200).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  limit: staffLimit(50),
  cursor: staffCursor,
});

export const loggedRequestSchema = z.strictObject({
  request_id: z.string(),
  at: z.iso.datetime(),
  organization_id: z.string().nullable(),
  key_id: z.string().nullable(),
  method: z.string(),
  route: z.string(),
  route_group: z.string(),
  status: z.int(),
  latency_ms: z.int(),
  error_code: z.string().nullable(),
  streamed: z.boolean(),
  resource_id: z.string().nullable(),
});

export const requestLogOutput = z.strictObject({
  requests: z.array(loggedRequestSchema),
  next_cursor: z.string().nullable(),
  routes: z.array(z.string()),
});

export const findRequestInput = z.strictObject({ request_id: z.string().trim().min(1).max(100) });
export const findRequestOutput = z.strictObject({ request: loggedRequestSchema.nullable() });
