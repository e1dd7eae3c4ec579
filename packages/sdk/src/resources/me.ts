import { unwrap, type Transport } from "../http/transport";
import type { CallOptions } from "../idempotency";

/** GET /v1/me: the key making the call. */
export class MeResource {
  constructor(private readonly transport: Transport) {}

  get(options: CallOptions = {}) {
    return unwrap(this.transport.json.GET("/v1/me", { signal: options.signal }));
  }
}
