import type { ServerResponse } from "node:http";

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
  ) {}

  get hasStarted(): boolean {
    return this.started;
  }

  send(event: object): void {
    if (this.closed) return;
    if (!this.started) this.start();
    this.res.write(`data: ${JSON.stringify(event)}\n\n`);
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
    this.res.on("close", () => {
      this.closed = true;
      clearTimeout(this.keepAlive);
    });
  }

  private armKeepAlive(): void {
    clearTimeout(this.keepAlive);
    this.keepAlive = setTimeout(() => {
      if (this.closed) return;
      this.res.write(": keep-alive\n\n");
      this.armKeepAlive();
    }, this.keepAliveMs);
    this.keepAlive.unref();
  }
}
