import type { z } from "zod";

import type { Scope } from "@mga/core/keys";
import type { ResolvedIntegration } from "@mga/core/partners/integrations";
import { acceptOperationRequest, type OperationDeps } from "@mga/core/partners/operations";

import { withIdempotency } from "../../../idempotency/with-idempotency";
import { partnerProcedure } from "../../../trpc";
import { acceptedOperation } from "./accept-operation";
import {
  operationAcceptedSchema,
  requiredIdempotencyHeader,
  type deletionInput,
  type profileChangeInput,
  type reprovisionInput,
} from "./operations.types";

export type OperationInputSchema = typeof deletionInput | typeof profileChangeInput | typeof reprovisionInput;

/** What tells the lifecycle requests (spec 4.10) apart; everything else about them is shared. */
export interface OperationRequest<Input extends OperationInputSchema> {
  /** The last segment of `/v1/integrations/{integration}/users/{external_user_id}/…`, which also names its idempotency route. */
  segment: "deletions" | "profile-changes" | "reprovision";
  scope: Scope;
  input: Input;
  summary: string;
  description: string;
  /** What the 202 means for this request. */
  accepted: string;
  /** Core's function that records the request and queues its operation. */
  start(deps: OperationDeps, integration: ResolvedIntegration, input: z.output<Input>): Promise<string>;
}

/** A lifecycle request's procedure: 202 with the operation and the user, Idempotency-Key required. */
export function operationRequestProcedure<Input extends OperationInputSchema>(request: OperationRequest<Input>) {
  // tRPC checks a procedure's input against the path input it already has on concrete schemas only.
  const schema: OperationInputSchema = request.input;
  return partnerProcedure
    .meta({
      openapi: {
        method: "POST",
        path: `/v1/integrations/{integration}/users/{external_user_id}/${request.segment}`,
        tags: ["partner users"],
        summary: request.summary,
        description: request.description,
        protect: true,
        requestHeaders: requiredIdempotencyHeader,
      },
      scope: request.scope,
      successStatuses: { 202: request.accepted },
      errors: [404, 409],
    })
    .input(schema)
    .output(operationAcceptedSchema)
    .mutation(({ ctx, input }) =>
      withIdempotency(ctx, { route: `POST ${request.segment}`, input, status: 202, required: true }, async () => {
        // tRPC types `input` from the union of the three schemas; it is this request's, parsed by `request.input`.
        const { user } = await acceptOperationRequest(
          { db: ctx.db, queue: ctx.queue, ...ctx.directory },
          ctx.integration,
          input.external_user_id,
          (deps) => request.start(deps, ctx.integration, input as z.output<Input>),
        );
        return acceptedOperation(ctx, user);
      }),
    );
}
