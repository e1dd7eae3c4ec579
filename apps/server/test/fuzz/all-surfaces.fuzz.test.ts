import { describe, expect, it } from "vitest";

import { buildOpenApiDocument } from "@mga/api";

import {
  BATCHES,
  buildRoutes,
  caseOf,
  differences,
  expectRefusal,
  f,
  fuzzedApp,
  send,
  snapshot,
  takeSnapshot,
  useFuzzFixture,
  type Route,
} from "../support/fuzz";

/**
 * Fuzzing across every surface at once: every method to every route of every surface, and the
 * volume of the per-surface batches (test/fuzz/*.fuzz.test.ts). The fixture: test/support/fuzz.ts.
 */
useFuzzFixture();

describe("fuzzing: malformed requests are 4xx errors and change nothing", () => {
  it(
    "every method to every route: 405 with Allow for what a path does not answer, HEAD as GET without a body",
    { timeout: 120_000 },
    async () => {
      const violations: string[] = [];
      const logsBefore = fuzzedApp().logs.length;
      const documented = Object.entries(buildOpenApiDocument(fuzzedApp().baseUrl).paths ?? {}).map(
        ([template, item]) => ({
          pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
          methods: Object.keys(item as object).map((method) => method.toUpperCase()),
        }),
      );
      /** What each path outside /v1 answers: the contract, written out. */
      const answered: Record<string, string[]> = {
        "/trpc/staff.signIn": ["POST"],
        "/trpc/staff.organizations.create": ["POST"],
        "/trpc/staff.organizations.rename": ["POST"],
        "/trpc/staff.organizations.list": ["GET", "HEAD"],
        "/trpc/system.status": ["GET", "HEAD"],
        "/trpc/staff.keys.create": ["POST"],
        "/trpc/staff.keys.update": ["POST"],
        "/trpc/staff.keys.roll": ["POST"],
        "/trpc/staff.keys.expiring": ["GET", "HEAD"],
        "/trpc/staff.webhooks.create": ["POST"],
        "/trpc/staff.webhooks.update": ["POST"],
        "/trpc/staff.webhooks.sendTestEvent": ["POST"],
        "/trpc/staff.webhooks.redeliver": ["POST"],
        "/trpc/staff.webhooks.rollSecret": ["POST"],
        "/trpc/staff.usage.requestLog": ["GET", "HEAD"],
        "/trpc/staff.usage.organizationUsage": ["GET", "HEAD"],
        "/trpc/staff.usage.keyUsage": ["GET", "HEAD"],
        "/trpc/staff.usage.usageOverview": ["GET", "HEAD"],
        "/trpc/staff.usage.findRequest": ["GET", "HEAD"],
        "/trpc/staff.partnerUsers.conversations": ["GET", "HEAD"],
        "/site/login": ["GET", "HEAD", "POST"],
        "/site/password-setup": ["GET", "HEAD", "POST"],
        "/site/verify-email": ["GET", "HEAD", "POST"],
        "/site/password-reset": ["GET", "HEAD", "POST"],
        "/site/api/password-setup/check": ["POST"],
        "/site/api/login-complete": ["POST"],
        "/embed/api/launches/consume": ["POST"],
        "/embed/api/chat/messages": ["POST"],
        "/embed/api/chat/check": ["GET", "HEAD"],
        // Its GET hands out the session's one chat token: no HEAD.
        "/embed/api/session": ["GET"],
        [`/embed/api/chat/conversations/${f.conversationId}/messages`]: ["GET", "HEAD"],
        [`/embed/api/chat/conversations/${f.conversationId}/stream`]: ["GET", "HEAD"],
        [`/embed/api/chat/conversations/${f.conversationId}/cancel`]: ["POST"],
        "/embed/demo-partner": ["GET", "HEAD"],
      };
      const expectedMethods = (route: Route): string[] => {
        if (route.surface !== "v1" && route.surface !== "sse") return answered[route.path] ?? [];
        const methods = documented.find((item) => item.pattern.test(route.path))?.methods ?? [];
        return methods.includes("GET") ? [...methods, "HEAD"] : methods;
      };
      const seen = new Set<string>();
      for (const route of Object.values(buildRoutes()).flat()) {
        if (seen.has(`${route.admin === true}${route.path}`)) continue;
        seen.add(`${route.admin === true}${route.path}`);
        const allowed = expectedMethods(route);
        if (allowed.length === 0) violations.push(`${route.path}: the test does not know what it answers`);
        for (const credentials of route.credentials) {
          for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]) {
            const label = `${route.admin ? "[admin] " : ""}${method} ${route.path} {${Object.keys(credentials).join(", ")}}`;
            if (allowed.includes(method)) {
              if (method !== "HEAD") continue;
              // HEAD is GET without its body: same status, with the same credentials.
              const [head, get] = [
                await send(caseOf(route, "HEAD", credentials, { method: "HEAD", body: undefined })),
                await send(caseOf(route, "GET", credentials, { method: "GET", body: undefined })),
              ];
              if (head.status !== get.status || head.text !== "")
                violations.push(`${label}: ${head.status} with ${head.text.length} bytes, GET answered ${get.status}`);
              continue;
            }
            // A body that would be refused if it were read: the method is refused first.
            const c = caseOf(route, `method ${method}`, credentials, {
              method,
              body: method === "GET" || method === "HEAD" ? undefined : Buffer.from("{oops"),
              contentType: "application/json",
            });
            const res = await send(c);
            const allow = String(res.headers.allow ?? "");
            if (res.status !== 405) violations.push(`${label}: ${res.status} ${res.text.slice(0, 160)}`);
            else if (allow.split(", ").sort().join() !== [...allowed].sort().join())
              violations.push(`${label}: Allow "${allow}", expected ${allowed.join(", ")}`);
            else if (method !== "HEAD" && expectRefusal(c, res))
              violations.push(`${label}: ${expectRefusal(c, res)}; ${res.text.slice(0, 160)}`);
          }
        }
      }
      const changes = differences(snapshot, await takeSnapshot());
      const errorLines = fuzzedApp()
        .logs.slice(logsBefore)
        .filter((line) => line.includes('"level":"error"'));
      expect({ violations, changes, errorLines }).toEqual({ violations: [], changes: [], errorLines: [] });
    },
  );

  // The batches now run one per file, each counting its own requests (runBatch fails a batch
  // that sent fewer than its numRuns); across all surfaces that is at least this many.
  it("sent at least 300 generated requests across all surfaces", () => {
    const sent = BATCHES.reduce((total, batch) => total + batch.numRuns, 0);
    expect(sent).toBeGreaterThanOrEqual(300);
  });
});
