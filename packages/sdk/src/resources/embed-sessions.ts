import { unwrap, type Transport } from "../http/transport";
import { idempotencyHeader, type IdempotentCallOptions } from "../idempotency";
import type { CreateEmbedSessionParams } from "../types";

/** POST /v1/embed-sessions: a single-use launch URL of the hosted chat (scope embed:launch). */
export class EmbedSessionsResource {
  constructor(private readonly transport: Transport) {}

  /** Use the returned `launch_url` unchanged; each launch gets a new Idempotency-Key unless you pass one. */
  create(params: CreateEmbedSessionParams, options: IdempotentCallOptions = {}) {
    return unwrap(
      this.transport.json.POST("/v1/embed-sessions", {
        params: { header: idempotencyHeader(options) },
        body: params,
        signal: options.signal,
      }),
    );
  }
}
