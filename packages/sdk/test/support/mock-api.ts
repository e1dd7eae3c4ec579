import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

import { Client, type ClientOptions } from "../../src/index";

/** Where the msw handlers answer as the API. */
export const BASE = "http://api.test";

/** msw listening for this test file; every request it sees is recorded. */
export function useMockApi() {
  const server = setupServer();
  const requests: Request[] = [];
  beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => server.close());
  server.events.on("request:start", ({ request }) => requests.push(request.clone()));
  return { server, requests };
}

/** A client whose back-off is a millisecond, so retries are quick; a test passes what it checks. */
export function testClient(options: Partial<ClientOptions> = {}) {
  return new Client({ apiKey: "mga_test_key", baseUrl: BASE, initialRetryDelayMs: 1, ...options });
}

export function envelope(code: string, message: string, requestId = "req_test") {
  return { error: { code, message, request_id: requestId } };
}
