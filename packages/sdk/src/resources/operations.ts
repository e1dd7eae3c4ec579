import { unwrap, type Transport } from "../http/transport";
import type { CallOptions } from "../idempotency";
import { pollUntil, type WaitOptions } from "../polling";
import type { LifecycleOperation, OperationStatus } from "../types";

/** The statuses an operation never leaves (spec 3.2). */
export const TERMINAL_OPERATION_STATUSES = [
  "completed",
  "failed",
  "expired",
  "cancelled",
] as const satisfies readonly OperationStatus[];

/** /v1/integrations/{integration}/user-operations: profile changes, deletions and reprovisions. */
export class OperationsResource {
  constructor(
    private readonly transport: Transport,
    private readonly integration: string,
  ) {}

  get(operationId: string, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.GET("/v1/integrations/{integration}/user-operations/{operation_id}", {
        params: { path: { integration: this.integration, operation_id: operationId } },
        signal: options.signal,
      }),
    );
  }

  /**
   * Polls until the operation is completed, failed, expired or cancelled and returns it (check its
   * `status`); throws WaitTimeoutError when it is not by `timeoutMs`.
   */
  waitFor(operationId: string, options: WaitOptions = {}): Promise<LifecycleOperation> {
    const read = async () => (await this.get(operationId, { signal: options.signal })).operation;
    return pollUntil(`Operation ${operationId}`, read, TERMINAL_OPERATION_STATUSES, options);
  }
}
