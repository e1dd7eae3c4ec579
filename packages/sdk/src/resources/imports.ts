import { unwrap, type Transport } from "../http/transport";
import { idempotencyHeader, type CallOptions, type IdempotentCallOptions } from "../idempotency";
import { pollUntil, type WaitOptions } from "../polling";
import type { CreateImportParams, ImportJob, ImportStatus } from "../types";

/** The statuses an import job never leaves. */
export const TERMINAL_IMPORT_STATUSES = ["completed", "failed"] as const satisfies readonly ImportStatus[];

/** /v1/integrations/{integration}/user-imports: bulk provisioning of up to 1,000 users. */
export class ImportsResource {
  constructor(
    private readonly transport: Transport,
    private readonly integration: string,
  ) {}

  create(params: CreateImportParams, options: IdempotentCallOptions = {}) {
    return unwrap(
      this.transport.json.POST("/v1/integrations/{integration}/user-imports", {
        params: { path: { integration: this.integration }, header: idempotencyHeader(options) },
        body: params,
        signal: options.signal,
      }),
    );
  }

  get(jobId: string, options: CallOptions = {}) {
    return unwrap(
      this.transport.json.GET("/v1/integrations/{integration}/user-imports/{job_id}", {
        params: { path: { integration: this.integration, job_id: jobId } },
        signal: options.signal,
      }),
    );
  }

  /** Polls until the job is completed or failed and returns it; throws WaitTimeoutError when it is not by `timeoutMs`. */
  waitFor(jobId: string, options: WaitOptions = {}): Promise<ImportJob> {
    const read = async () => (await this.get(jobId, { signal: options.signal })).import;
    return pollUntil(`Import ${jobId}`, read, TERMINAL_IMPORT_STATUSES, options);
  }
}
