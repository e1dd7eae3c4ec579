/**
 * A small JSON-over-HTTP helper for the ports' HTTP adapters: a timeout per call, and
 * failures split into "unavailable" (network, timeout, 5xx, 429: worth retrying) and
 * refusals (other 4xx: a bug or a conflict, not retried blindly).
 */
export interface HttpTarget {
  baseUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  service: string;
}

/** The site-account system or the chat identity store could not be reached or failed: worth retrying. */
export class DirectoryUnavailable extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "DirectoryUnavailable";
  }
}

export class HttpRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HttpRefused";
  }
}

export async function httpJson<T>(
  target: HttpTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: T }> {
  let response: Response;
  try {
    response = await fetch(`${target.baseUrl.replace(/\/+$/, "")}${path}`, {
      method,
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...target.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (error) {
    throw new DirectoryUnavailable(`${target.service} unreachable (${method} ${path})`, { cause: error });
  }
  const text = await response.text();
  if (response.status >= 500 || response.status === 429) {
    throw new DirectoryUnavailable(`${target.service} answered HTTP ${response.status} (${method} ${path})`);
  }
  if (response.status >= 400)
    throw new HttpRefused(response.status, `${target.service} refused ${method} ${path}: HTTP ${response.status}`);
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    throw new DirectoryUnavailable(`${target.service} answered something that is not JSON (${method} ${path})`);
  }
  return { status: response.status, data: data as T };
}
