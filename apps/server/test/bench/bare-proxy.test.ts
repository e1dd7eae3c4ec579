import { request, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { benchUpstream } from "../../src/bench/bench-upstream";
import { startChildServer, type ChildServer } from "../../src/bench/child-server";
import { listen } from "../../src/bench/environment";
import { runLoad } from "../../src/bench/load-process";

/**
 * The bursts' reference (issue 27): the built bare proxy, in a process of its own as the bench
 * runs it, relays each stream of a burst whole and ends it with the one terminal frame the
 * bench counts, so its figures stand beside the service's for the same work.
 */
let upstream: { server: Server; setPace: ReturnType<typeof benchUpstream>["setPace"] };
let proxy: ChildServer;
let upstreamCalls = 0;
let upstreamCallsClosed = 0;

beforeAll(async () => {
  upstream = benchUpstream();
  upstream.server.on("request", (_req, res) => {
    upstreamCalls += 1;
    res.on("close", () => (upstreamCallsClosed += 1));
  });
  proxy = await startChildServer("bare-proxy", { UPSTREAM_CHAT_URL: await listen(upstream.server) });
});

afterAll(async () => {
  await proxy?.stop();
  upstream?.server.closeAllConnections();
  upstream?.server.close();
});

describe("the bench's bare proxy", () => {
  it("relays every stream of a burst to its end, with one terminal frame", { timeout: 30_000 }, async () => {
    upstream.setPace({ kind: "slow", seconds: 2 });
    const callsBefore = upstreamCalls;
    const burst = await runLoad({
      kind: "burst",
      url: `${proxy.url}/v1/messages`,
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "What is the minimum down payment?", stream: true }),
      streams: 40,
    });
    expect(burst.complete).toBe(40);
    expect(burst.terminalFrames).toEqual({ "1": 40 });
    expect(upstreamCalls - callsBefore).toBe(40);
    // Each stream was timed to its first `content` frame, which the upstream sends at once.
    expect(burst.p50).toBeGreaterThan(0);
    expect(burst.p50).toBeLessThan(2000);
  });

  it("passes the upstream's frames through unchanged", { timeout: 10_000 }, async () => {
    upstream.setPace({ kind: "instant" });
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${proxy.url}/v1/messages`, { method: "POST" }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.end("{}");
    });
    const types = body
      .split("\n\n")
      .filter(Boolean)
      .map((frame) => (JSON.parse(frame.replace(/^data: /, "")) as { type: string }).type);
    expect(types).toEqual(["content", "content_postprocessed", "complete", "public_api_complete"]);
  });

  it("ends its upstream call when the client leaves", { timeout: 10_000 }, async () => {
    upstream.setPace({ kind: "slow", seconds: 30 });
    await new Promise<void>((resolve, reject) => {
      const req = request(`${proxy.url}/v1/messages`, { method: "POST" }, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", () => {});
      req.setTimeout(5000, () => reject(new Error("no first frame")));
      req.end("{}");
    });
    // The upstream's answer would run 30 s: its call is closed because the proxy ended it.
    await expect.poll(() => upstreamCalls - upstreamCallsClosed, { timeout: 5000 }).toBe(0);
  });
});
