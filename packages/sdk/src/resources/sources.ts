import { unwrap, type Transport } from "../http/transport";
import type { CallOptions } from "../idempotency";

/** GET /v1/sources: the sources the key may select for an answer. */
export class SourcesResource {
  constructor(private readonly transport: Transport) {}

  list(options: CallOptions = {}) {
    return unwrap(this.transport.json.GET("/v1/sources", { signal: options.signal }));
  }
}
