import { createHmac } from "node:crypto";
import { expect } from "vitest";

import { TEST_SECRETS } from "@mga/core/testing";

import type { UntypedJson } from "./untyped-json";

/**
 * The admin console's side of /trpc in tests: plain fetch calls (no tRPC client, no
 * transformer), the session cookie and the X-CSRF-Token header set by hand, so a test can
 * leave either out or get them wrong.
 */
export interface TrpcOptions {
  input?: unknown;
  mutation?: boolean;
  cookie?: string;
  csrf?: string;
  /** The visitor's address the console forwards, signed as the console signs it (X-Console-Forwarded-For). */
  address?: string;
}

/**
 * The X-Console-Forwarded-For header the console sends for `address` (apps/admin/src/lib/visitor-signature.ts),
 * signed with the test databases' SECRET_KEY; `now` and `key` let a test make an old or a foreign one.
 */
export function consoleForwardedFor(
  address: string,
  now = Date.now(),
  key = TEST_SECRETS.macKey("console-forwarding"),
): string {
  const signed = `${address};${Math.floor(now / 1000)}`;
  return `${signed};${createHmac("sha256", key).update(signed).digest("base64url")}`;
}

export interface TrpcResult {
  status: number;
  data: UntypedJson;
  error: { message: string; data?: { httpStatus?: number; code?: string; path?: string } } | undefined;
  setCookie: string | null;
}

/** A signed-in staff member: the cookie to send, the CSRF token to echo, the raw Set-Cookie. */
export interface StaffSession {
  email: string;
  cookie: string;
  csrf: string;
  setCookie: string;
}

/** `baseUrl` is read on each call, so the client can be made before the app has started. */
export function staffClient(baseUrl: () => string) {
  async function trpc(path: string, options: TrpcOptions = {}): Promise<TrpcResult> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (options.cookie) headers.Cookie = options.cookie;
    if (options.csrf) headers["X-CSRF-Token"] = options.csrf;
    if (options.address) headers["X-Console-Forwarded-For"] = consoleForwardedFor(options.address);
    const url =
      options.mutation || options.input === undefined
        ? `${baseUrl()}/trpc/${path}`
        : `${baseUrl()}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(options.input))}`;
    const res = await fetch(
      url,
      options.mutation ? { method: "POST", headers, body: JSON.stringify(options.input ?? {}) } : { headers },
    );
    const text = await res.text();
    let body: { result?: { data: UntypedJson }; error?: TrpcResult["error"] };
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${path}: not JSON (${res.status}): ${text.slice(0, 300)}`);
    }
    return { status: res.status, data: body.result?.data, error: body.error, setCookie: res.headers.get("set-cookie") };
  }

  async function signIn(email: string, password: string): Promise<StaffSession> {
    const res = await trpc("staff.signIn", { mutation: true, input: { email, password } });
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    const cookie = (res.setCookie ?? "").split(";")[0] as string;
    return { email, cookie, csrf: res.data.csrf_token as string, setCookie: res.setCookie ?? "" };
  }

  /** A query as this staff member. */
  const query = (session: StaffSession | undefined, path: string, input?: unknown) =>
    trpc(path, { input, cookie: session?.cookie });

  /** A mutation as this staff member, with the session's CSRF token. */
  const mutate = (session: StaffSession | undefined, path: string, input?: unknown) =>
    trpc(path, { mutation: true, input, cookie: session?.cookie, csrf: session?.csrf });

  return { trpc, signIn, query, mutate };
}

/** The data of a successful call; otherwise fails with the status and error, which say why. */
export function ok(res: TrpcResult): UntypedJson {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.error)}`);
  return res.data;
}
