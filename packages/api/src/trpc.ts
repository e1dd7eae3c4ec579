import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { z } from "zod";

import { AppError } from "@mga/core/errors";
import { sameSecret } from "@mga/core/ids";
import { type Scope } from "@mga/core/keys";
import { resolveIntegration } from "@mga/core/partners/integrations";
import { authenticateStaff } from "@mga/core/staff";

import type { ApiContext } from "./context";
import { trpcErrorShape } from "./errors/trpc-error-shape";
import type { ProcedureErrorStatus, SuccessStatus } from "./openapi/response-statuses";
import { authorizeKeyRequest } from "./pipeline/authorize-key-request";
import { noteRoute, noteTouchedResource } from "./pipeline/request-record";

/**
 * Procedure metadata: the OpenAPI route, plus what our middlewares and the document
 * generator read: the scope the route needs and the statuses it answers with
 * (openapi/response-statuses.ts adds those every key-authenticated route shares).
 */
export type ApiMeta = OpenApiMeta<{
  /** The scope a key must hold; absent means any active key (GET /v1/me). */
  scope?: Scope;
  /** Each success status with what it means, when not only 200 (the procedure sets ctx.response.status). */
  successStatuses?: Partial<Record<SuccessStatus, string>>;
  /** The error statuses only some routes produce (404, 409, 502) that this one can. */
  errors?: readonly ProcedureErrorStatus[];
}>;

const t = initTRPC
  .context<ApiContext>()
  .meta<ApiMeta>()
  .create({
    // On /trpc (the admin console) the thrown error's mapping (toApiError) gives the message,
    // the status and the spec's envelope beside tRPC's shape; tRPC's own data keeps its shape
    // but never carries a stack trace, and the status is the mapped one. The REST host does
    // not send this shape: it writes the envelope of the same mapping itself
    // (rest/rest-handler.ts), since trpc-to-openapi adds its own fields to whatever this returns.
    errorFormatter({ shape, error, ctx }) {
      const { stack: _stack, ...data } = shape.data;
      const formatted = trpcErrorShape(error, { requestId: ctx?.requestId ?? "" });
      return { ...shape, ...formatted, data: { ...data, ...formatted.data } };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

/**
 * Every public route: the key, its rate limit and the route's scope, checked by the one
 * pipeline the streamed answers use too (pipeline/authorize-key-request.ts).
 */
export const apiProcedure = t.procedure.use(async ({ ctx, meta, next, getRawInput }) => {
  if (meta?.openapi) noteRoute(ctx.record, meta.openapi.method, meta.openapi.path, meta.openapi.tags?.[0]);
  const key = await authorizeKeyRequest(ctx, meta?.scope);
  // tRPC merges this into the context itself: spreading ctx here would copy it twice per request.
  const result = await next({ ctx: { key } });
  // What it touched, for the request log's link: read only when the procedure succeeded.
  if (result.ok) noteTouchedResource(ctx.record, result.data, await getRawInput().catch(() => undefined));
  return result;
});

/**
 * Partner routes (spec 4.9, 4.10): after the key and scope, the path's `integration` must
 * name an active integration of the key's organization (or an alias granted to the key);
 * procedures then work on the canonical integration only.
 */
export const partnerProcedure = apiProcedure
  .input(z.object({ integration: z.string() }))
  .use(async ({ ctx, input, next }) => {
    const integration = await resolveIntegration(ctx.db, ctx.key, input.integration);
    return next({ ctx: { integration } });
  });

/**
 * Admin console procedures (served on /trpc, not /v1): a signed-in staff member from the
 * session cookie; every mutation must echo the session's CSRF token in `X-CSRF-Token`.
 */
export const staffProcedure = t.procedure.use(async ({ ctx, type, next }) => {
  const staff = await authenticateStaff(ctx.db, ctx.staffSessionToken);
  if (type === "mutation" && !sameSecret(ctx.csrfHeader ?? "", staff.csrfToken))
    throw new AppError("forbidden", "missing or wrong X-CSRF-Token");
  return next({ ctx: { staff } });
});

/** Mutations only admins may run (viewers read). */
export const adminProcedure = staffProcedure.use(({ ctx, next }) => {
  if (ctx.staff.role !== "admin") throw new AppError("forbidden", "this action needs the admin role");
  return next();
});
