import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";

import { SseWriter } from "../../src/streams/sse-writer";

/**
 * The event-stream writer over a real socket: a keep-alive comment after every `keepAliveMs` of
 * silence (again and again, not once), none while frames flow faster than that, and nothing
 * once the stream has ended.
 */
const KEEP_ALIVE_MS = 60;
/** Long enough that no stall of a loaded machine between two writes reaches it. */
const SLOW_KEEP_ALIVE_MS = 400;
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/**
 * Serves one stream written by `write` (with a keep-alive after `keepAliveMs` of silence), reads
 * it as it comes (`onPart` told of each block), waits for `write` to return, and gives what
 * came, each keep-alive as `:`.
 */
async function streamOf(
  keepAliveMs: number,
  write: (sse: SseWriter) => Promise<void>,
  onPart: (part: string) => void = () => {},
): Promise<{ parts: string[]; errors: unknown[] }> {
  const errors: unknown[] = [];
  let written: Promise<void> = Promise.resolve();
  server = createServer((_req, res) => {
    res.on("error", (error) => errors.push(error));
    written = write(new SseWriter(res, keepAliveMs)).catch((error: unknown) => void errors.push(error));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const parts: string[] = [];
  let buffered = "";
  for await (const chunk of response.body?.pipeThrough(new TextDecoderStream()) ?? []) {
    const blocks = (buffered + chunk).split("\n\n");
    buffered = blocks.pop() ?? "";
    for (const block of blocks) {
      const part = block === ": keep-alive" ? ":" : block.replace(/^data: /, "");
      parts.push(part);
      onPart(part);
    }
  }
  await written;
  return { parts, errors };
}

describe("SseWriter", () => {
  it("sends a keep-alive after each stretch of silence, again and again", async () => {
    let keepAlives = 0;
    let secondKeepAlive = () => {};
    const twoKeepAlives = new Promise<void>((resolve) => (secondKeepAlive = resolve));
    const { parts } = await streamOf(
      KEEP_ALIVE_MS,
      async (sse) => {
        sse.send({ n: 1 });
        // Silent until the client has read a second keep-alive: one comes only if the first re-armed the timer.
        await Promise.race([twoKeepAlives, sleep(5_000, undefined, { ref: false })]);
        sse.send({ n: 2 });
        sse.end();
      },
      (part) => {
        if (part === ":" && ++keepAlives === 2) secondKeepAlive();
      },
    );
    // A third may slip in on a loaded machine, before the frame: the count between is not the point.
    const between = parts.slice(1, -1);
    expect([parts[0], parts.at(-1)]).toEqual(['{"n":1}', '{"n":2}']);
    expect(between.every((part) => part === ":")).toBe(true);
    expect(between.length).toBeGreaterThanOrEqual(2);
  });

  it("sends none while frames come faster than the keep-alive interval", async () => {
    const { parts } = await streamOf(SLOW_KEEP_ALIVE_MS, async (sse) => {
      for (let n = 1; n <= 40; n += 1) {
        sse.send({ n });
        await sleep(SLOW_KEEP_ALIVE_MS / 20);
      }
      sse.end();
    });
    // 40 frames over twice the interval: each write pushed the keep-alive back.
    expect(parts).toHaveLength(40);
    expect(parts).not.toContain(":");
  });

  it("writes nothing once ended, not even a keep-alive due", async () => {
    const { parts, errors } = await streamOf(KEEP_ALIVE_MS, async (sse) => {
      sse.send({ n: 1 });
      sse.end();
      sse.send({ n: 2 });
      await sleep(KEEP_ALIVE_MS * 3);
    });
    expect(parts).toEqual(['{"n":1}']);
    // A write after the end would have been an error on the response.
    expect(errors).toEqual([]);
  });
});
