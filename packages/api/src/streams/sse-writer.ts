import type { ServerResponse } from "node:http";

import { NO_OBSERVER, type Observer } from "@mga/core/observe";

/**
 * Writes a text/event-stream: one `data: <json>` frame per event, a comment every
 * `keepAliveMs` of silence so that proxies keep the connection open, and nothing after
 * `end()`. Headers go out with the first frame, so a failure before it can still be an
 * ordinary JSON error response.
 */
export class SseWriter {
  private started = false;
  private closed = false;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs = 15_000,
    /** Told when the stream opens and closes (the host's open-streams gauge). */
    private readonly observer: Pick<Observer, "sseStreamOpened"> = NO_OBSERVER,
  ) {}

  get hasStarted(): boolean {
    return this.started;
  }

  send(event: object): void {
    this.write(`data: ${JSON.stringify(event)}\n\n`);
  }

  /** A frame as kept (its JSON already written), with its `id:` so that the client can resume after it. */
  sendFrame(id: string, data: string): void {
    this.write(`id: ${id}\ndata: ${data}\n\n`);
  }

  /** A comment line: ignored by every SSE client, read by ours (`: reconnect`). */
  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  /** Sends the headers now (a stream that may have nothing to send yet, or a HEAD). */
  open(): void {
    if (!this.started && !this.closed) this.start();
  }

  /** Whether the client is gone or the stream ended. */
  get isClosed(): boolean {
    return this.closed;
  }

  private write(chunk: string): void {
    if (this.closed) return;
    if (!this.started) this.start();
    this.res.write(chunk);
    this.armKeepAlive();
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.keepAlive);
    this.res.end();
  }

  private start(): void {
    this.started = true;
    this.res.statusCode = 200;
    this.res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
    this.res.setHeader("Cache-Control", "no-cache, no-transform");
    this.res.setHeader("Connection", "keep-alive");
    // Tells nginx-style proxies not to buffer the stream.
    this.res.setHeader("X-Accel-Buffering", "no");
    // No flushHeaders(): the first frame's write carries the headers, one packet instead of two.
    const observedClose = this.observer.sseStreamOpened();
    this.res.on("close", () => {
      observedClose();
      this.closed = true;
      clearTimeout(this.keepAlive);
    });
  }

  /**
   * One timer for the stream's life, pushed back by every write: `refresh()` re-arms it where a
   * new timer per frame would allocate one and drop one, thousands a second under many streams.
   * A cleared timer (the stream ended) stays cleared when refreshed.
   */
  private armKeepAlive(): void {
    if (this.keepAlive) {
      this.keepAlive.refresh();
      return;
    }
    this.keepAlive = setTimeout(() => {
      if (this.closed) return;
      this.res.write(": keep-alive\n\n");
      this.keepAlive?.refresh();
    }, this.keepAliveMs);
    this.keepAlive.unref();
  }
}
