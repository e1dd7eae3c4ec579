import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

import { startTestApp, UPSTREAM_TOKEN, UPSTREAM_URL, type TestApp } from "./test-app";
import type { UntypedJson } from "./untyped-json";

/** The upstream chat service, mocked with msw at UPSTREAM_URL (docs/upstream-protocol.md). */
export const upstreamServer = setupServer();

export interface ReceivedUpstreamCall {
  body: UntypedJson;
  headers: Headers;
  signal: AbortSignal;
}

export const received: ReceivedUpstreamCall[] = [];

type Step = { event: object } | { raw: string } | { wait: number } | { waitFor: Promise<unknown> } | { fail: true };

/** Answers every upstream call with these steps, as an event stream. */
export function upstreamAnswers(steps: Step[] | ((call: ReceivedUpstreamCall) => Step[])) {
  upstreamServer.use(
    http.post(`${UPSTREAM_URL}/v1/chat/stream`, async ({ request }) => {
      const call = { body: await request.json(), headers: request.headers, signal: request.signal };
      received.push(call);
      if (request.headers.get("authorization") !== `Bearer ${UPSTREAM_TOKEN}`)
        return new HttpResponse("no", { status: 401 });
      const list = typeof steps === "function" ? steps(call) : steps;
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const step of list) {
            // The client went away (our upstream call was cancelled): stop like a real server would.
            if (request.signal.aborted) return;
            if ("wait" in step) await abortableWait(step.wait, request.signal);
            else if ("waitFor" in step) await step.waitFor;
            else if ("fail" in step) {
              controller.error(new Error("upstream connection reset"));
              return;
            } else
              controller.enqueue(encoder.encode("raw" in step ? step.raw : `data: ${JSON.stringify(step.event)}\n\n`));
          }
          if (!request.signal.aborted) controller.close();
        },
      });
      return new HttpResponse(stream, { headers: { "Content-Type": "text/event-stream" } });
    }),
  );
}

export function upstreamStatus(status: number) {
  upstreamServer.use(http.post(`${UPSTREAM_URL}/v1/chat/stream`, () => new HttpResponse("upstream broke", { status })));
}

/** A well-formed answer: two fragments, the post-processed text with citations and sources, completion. */
export function answer(
  text = "FHA requires 3.5 percent down. [1]",
  extra: { citations?: unknown[]; sources?: unknown[]; complete?: object } = {},
): Step[] {
  const half = Math.ceil(text.length / 2);
  return [
    { event: { type: "content", content: text.slice(0, half) } },
    { event: { type: "content", content: text.slice(half) } },
    {
      event: {
        type: "content_postprocessed",
        content: text,
        citations: extra.citations ?? [
          {
            id: "fha-1",
            title: "FHA down payment",
            source_type: "fha",
            excerpt: "3.5 percent",
            url: "https://example.test/fha",
          },
        ],
        sources: extra.sources ?? [{ source_type: "fha", label: "FHA" }],
      },
    },
    { event: extra.complete ?? { type: "complete", metadata: { tokens_used: 42 } } },
  ];
}

/** Reads an SSE response into its frames (data payloads) and comments. */
/**
 * Reads a text/event-stream as an SSE client does: each block's `data:` lines are one frame
 * (with its `id:`, if any); a block of `:` lines is a comment.
 */
export async function readSse(response: Response, onFrame?: (frame: UntypedJson, id: string | undefined) => void) {
  const frames: UntypedJson[] = [];
  const ids: Array<string | undefined> = [];
  const comments: string[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split("\n");
      const data = lines.filter((line) => line.startsWith("data: ")).map((line) => line.slice(6));
      if (data.length === 0 && lines.every((line) => line.startsWith(":"))) comments.push(block);
      else if (data.length > 0) {
        const frame = JSON.parse(data.join("\n"));
        const id = lines.find((line) => line.startsWith("id: "))?.slice(4);
        frames.push(frame);
        ids.push(id);
        onFrame?.(frame, id);
      }
      end = buffer.indexOf("\n\n");
    }
  }
  return { frames, ids, comments, rest: buffer };
}

function abortableWait(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The usual setup of a test file that talks to the mocked upstream: msw listening, a test
 * app (and optionally a second instance on the same database), handlers and recorded calls
 * reset after each test. Returns the apps through getters (they exist once beforeAll ran).
 */
export function useAppWithMockedUpstream(options: { sseKeepAliveMs?: number; secondInstance?: boolean } = {}) {
  let app: TestApp | undefined;
  let second: TestApp | undefined;
  beforeAll(async () => {
    upstreamServer.listen({ onUnhandledFrame: "bypass" });
    app = await startTestApp({ sseKeepAliveMs: options.sseKeepAliveMs });
    if (options.secondInstance) second = await startTestApp({ shareDatabaseWith: app });
  });
  afterEach(() => {
    upstreamServer.resetHandlers();
    received.length = 0;
  });
  afterAll(async () => {
    upstreamServer.close();
    await second?.close();
    await app?.close();
  });
  return {
    get app() {
      return app as TestApp;
    },
    get second() {
      return second as TestApp;
    },
  };
}
