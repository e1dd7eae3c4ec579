import { unwrap, type Transport } from "../http/transport";
import type { CallOptions } from "../idempotency";
import type { UsageQuery } from "../types";

/** GET /v1/usage: your organization's usage per UTC day (needs `chat:read`). */
export class UsageResource {
  constructor(private readonly transport: Transport) {}

  /** Requests, answers, tokens, upstream errors and rate-limited requests per day (default: the last 30 days), and launches per integration. */
  get(query: UsageQuery = {}, options: CallOptions = {}) {
    return unwrap(this.transport.json.GET("/v1/usage", { params: { query }, signal: options.signal }));
  }
}
