import type { ServerResponse } from "node:http";
import type { z } from "zod";

import { AppError, parseOrThrow } from "@mga/core/errors";

import type { ApiRequest } from "../context";

/**
 * A route of the hosted chat (/embed/api/…) or the built-in site (/site/api/…): JSON for the
 * service's own pages, not part of the public /v1 surface or its OpenAPI document. The host
 * (apps/server) lists it beside its pages; whatever a route throws reaches the host's one error
 * mapper and envelope, as on /v1. HEAD is answered wherever GET is, unless `head: false`.
 */
export interface HostedRoute {
  method: "GET" | "POST";
  /** An exact path, or a pattern whose match the handler receives. */
  path: string | RegExp;
  head?: false;
  handle(req: ApiRequest, res: ServerResponse, match: RegExpExecArray | null): Promise<void>;
}

/** What a JSON route answers: its status (200 unless said) and the body its output schema checks. */
export interface HostedResult<O> {
  status?: number;
  body: O;
}

/**
 * One JSON route: who calls (`caller`: a token's authority, or the address a throttle counts;
 * first, so a bad token is a 401 whatever the body),
 * then its input read from the request and parsed by its zod schema, then its result checked
 * by its output schema before anything is written, as /v1's procedures are by `.output()`.
 */
export function jsonRoute<A, I extends z.ZodType, O extends z.ZodType>(spec: {
  method: HostedRoute["method"];
  path: HostedRoute["path"];
  head?: false;
  caller: (req: ApiRequest) => A | Promise<A>;
  /** The input as sent (body, path parameters, query, headers), before its schema reads it. */
  read: (req: ApiRequest, match: RegExpExecArray | null) => unknown;
  input: I;
  /** What to send, when the route says it rather than listing the issues. */
  refusal?: string;
  output: O;
  run: (call: { auth: A; input: z.output<I>; requestId: string }) => Promise<HostedResult<z.input<O>>>;
}): HostedRoute {
  return {
    method: spec.method,
    path: spec.path,
    ...(spec.head === false ? { head: false as const } : {}),
    async handle(req, res, match) {
      const auth = await spec.caller(req);
      const input = parseInput(spec.input, spec.read(req, match), spec.refusal);
      const result = await spec.run({ auth, input, requestId: req.requestId ?? "" });
      const checked = spec.output.safeParse(result.body);
      // A body that does not match its schema is our bug: a 500 (logged by the host), never sent.
      if (!checked.success)
        throw new Error(
          `${spec.method} ${String(spec.path)} answered outside its output schema: ${checked.error.message}`,
        );
      writeHostedJson(res, result.status ?? 200, checked.data);
    },
  };
}

/** Parses a route's input; a refusal is a 400 naming what to send (or the issues). */
export function parseInput<I extends z.ZodType>(schema: I, raw: unknown, refusal?: string): z.output<I> {
  if (refusal === undefined) return parseOrThrow(schema, raw);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid_request", refusal);
  return parsed.data;
}

/** A hosted route's JSON answer, never cached; no body at all when the schema allows none (204). */
export function writeHostedJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  if (body === undefined) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.setHeader("Content-Type", "application/json");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** A path pattern's first parameter, decoded (the host has checked its percent-encoding). */
export const pathParameter = (match: RegExpExecArray | null) => decodeURIComponent(match?.[1] ?? "");
