import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

import { answerQuestion } from "./answer-question";

/**
 * The local assistant: an upstream chat service speaking docs/upstream-protocol.md,
 * answering from the bundled sample corpus (searched in memory, see corpus-index.ts). The API
 * starts it in-process when no UPSTREAM_CHAT_URL is configured; it is reached over real HTTP
 * like any upstream.
 */
const requestSchema = z.object({
  conversation_id: z.string(),
  message: z.string().min(1),
  history: z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.string() })).default([]),
  sources: z.object({
    agency_source_types: z.array(z.string()).default([]),
    tenant_source_keys: z.array(z.string()).default([]),
    shared_source_types: z.array(z.string()).default([]),
  }),
  enabled_agency_source_types: z.array(z.string()).optional(),
  // The hosted chat's loan (docs/upstream-protocol.md); its program and property state are used here.
  loan_context: z.object({ program: z.string().optional(), property_state: z.string().optional() }).loose().optional(),
});

export interface LocalAssistant {
  url: string;
  close(): Promise<void>;
}

export async function startLocalAssistant(options: {
  token?: string | undefined;
  port?: number;
  /** Pause between streamed words, so a streamed answer looks like one (0 in tests). */
  wordDelayMs?: number;
}): Promise<LocalAssistant> {
  const server: Server = createServer((req, res) => {
    handle(options, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" }).end('{"error":"internal"}');
      else res.end(`data: ${JSON.stringify({ type: "error", message: "internal" })}\n\n`);
    });
  });
  // Exclusive: in a cluster worker (WORKERS > 1) a plain listen would share one port among every worker's assistant.
  await new Promise<void>((resolve) =>
    server.listen({ port: options.port ?? 0, host: "127.0.0.1", exclusive: true }, resolve),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function handle(
  options: { token?: string | undefined; wordDelayMs?: number },
  req: IncomingMessage,
  res: ServerResponse,
) {
  if (req.method !== "POST" || req.url !== "/v1/chat/stream") {
    res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":"not found"}');
    return;
  }
  if (options.token && !sameSecret(req.headers.authorization ?? "", `Bearer ${options.token}`)) {
    res.writeHead(401, { "Content-Type": "application/json" }).end('{"error":"unauthorized"}');
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const parsed = requestSchema.safeParse(safeJson(Buffer.concat(chunks).toString("utf8")));
  if (!parsed.success) {
    res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "invalid request" }));
    return;
  }
  const { message, history, sources, loan_context, enabled_agency_source_types } = parsed.data;
  const answer = answerQuestion({
    message,
    history,
    sources,
    enabledAgencySources: enabled_agency_source_types,
    program: loan_context?.program,
    propertyState: loan_context?.property_state,
  });

  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  let closed = false;
  res.on("close", () => {
    closed = true;
  });
  const send = (event: object) => res.write(`data: ${JSON.stringify(event)}\n\n`);
  const pieces = answer.text.match(/\S+\s*/g) ?? [answer.text];
  for (let i = 0; i < pieces.length && !closed; i += 4) {
    send({ type: "content", content: pieces.slice(i, i + 4).join("") });
    if (options.wordDelayMs) await new Promise((resolve) => setTimeout(resolve, options.wordDelayMs));
  }
  if (closed) return;
  send({ type: "content_postprocessed", content: answer.text, citations: answer.citations, sources: answer.sources });
  const tokens = Math.ceil((message.length + answer.text.length) / 4);
  send({ type: "complete", metadata: { tokens_used: tokens } });
  res.end();
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
