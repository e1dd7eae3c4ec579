import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";

import { addressLiteral, isPublicAddress } from "./address-rules";

export interface SafePostOptions {
  /** The whole attempt (name resolution, connection, response headers and capped body). */
  timeoutMs: number;
  /** Local development and tests only: deliver to loopback and private addresses too. */
  allowPrivateAddresses: boolean;
  /** How much of the response body is read before the connection is dropped. */
  maxResponseBytes: number;
}

export type SafePostResult =
  | { ok: true; status: number; latencyMs: number }
  | { ok: false; status: number | null; latencyMs: number; error: string };

/**
 * One POST to a partner's URL, with the SSRF rules (docs/decisions.md): the name is resolved
 * once, every address it resolves to must be public (unless allowed), and the connection goes to
 * the address that was checked (the socket's lookup answers it, so a second resolution cannot
 * return another one, and TLS still verifies the certificate against the name). Redirects are
 * not followed (a 3xx is a failure); the body is read up to a small cap; everything within
 * `timeoutMs`. Never throws: the outcome says what happened, in words staff can read.
 */
export async function safePost(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SafePostOptions,
): Promise<SafePostResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(options.timeoutMs);
  const failed = (error: string, status: number | null = null): SafePostResult => ({
    ok: false,
    status,
    latencyMs: latency(),
    error,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return failed("the endpoint URL is not a valid URL");
  }
  if (target.protocol !== "https:" && target.protocol !== "http:")
    return failed("only http and https URLs are delivered to");
  let address: { address: string; family: number };
  try {
    address = await resolveOnce(target.hostname, options.allowPrivateAddresses, signal);
  } catch (error) {
    return failed(
      signal.aborted
        ? `timed out after ${options.timeoutMs} ms resolving ${target.hostname}`
        : (error as Error).message,
    );
  }
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all)
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  return new Promise<SafePostResult>((resolve) => {
    const client = target.protocol === "https:" ? https : http;
    const request = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) },
        lookup: pinned,
        agent: false,
        signal,
      },
      (response) => {
        let read = 0;
        const status = response.statusCode ?? 0;
        const finish = () => {
          if (status >= 200 && status < 300) resolve({ ok: true, status, latencyMs: latency() });
          else if (status >= 300 && status < 400) resolve(failed(`redirect ${status} not followed`, status));
          else resolve(failed(`HTTP ${status}`, status));
        };
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read >= options.maxResponseBytes) {
            response.destroy();
            finish();
          }
        });
        response.on("end", finish);
        response.on("error", () => finish());
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      resolve(
        failed(
          signal.aborted
            ? `timed out after ${options.timeoutMs} ms`
            : `connection failed: ${error.code ?? error.message}`,
        ),
      );
    });
    request.end(body);
  });
}

async function resolveOnce(
  hostname: string,
  allowPrivate: boolean,
  signal: AbortSignal,
): Promise<{ address: string; family: number }> {
  const literal = addressLiteral(hostname);
  const addresses = literal
    ? [{ address: literal, family: literal.includes(":") ? 6 : 4 }]
    : await Promise.race([
        lookup(hostname, { all: true, verbatim: true }),
        new Promise<never>((_, reject) =>
          signal.addEventListener("abort", () => reject(new Error("timed out")), { once: true }),
        ),
      ]).catch((error: NodeJS.ErrnoException) => {
        if (signal.aborted) throw error;
        throw new Error(`${hostname} did not resolve (${error.code ?? error.message})`);
      });
  const first = addresses[0];
  if (!first) throw new Error(`${hostname} did not resolve`);
  // Every address must be allowed: a name that also resolves to a private one is refused whole.
  const refused = allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
  if (refused)
    throw new Error(
      `refused: ${hostname} resolves to ${refused.address}, a loopback, private, link-local or reserved address`,
    );
  return first;
}
