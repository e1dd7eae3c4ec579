import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describeStatus, type StatusOutcome } from "@/lib/describe-status";
import { createApiClient } from "@/lib/trpc";
import { TRPCClientError } from "@trpc/client";
import { afterEach, describe, expect, it } from "vitest";

const API = "http://api.test";

async function outcomeOf(promise: Promise<unknown>): Promise<StatusOutcome> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

describe("describeStatus", () => {
  it("shows the status values when the API and its database are up", () => {
    const view = describeStatus(
      { ok: true, value: { service: "mortgage-guideline-api", api_version: "1.2.0", database: "ok" } },
      API,
    );
    expect(view).toEqual({
      state: "healthy",
      title: "API is up",
      summary: `The API's admin listener at ${API} answered and reached its database.`,
      items: [
        { label: "Service", value: "mortgage-guideline-api", tone: "neutral" },
        { label: "API version", value: "1.2.0", tone: "neutral" },
        { label: "Database", value: "ok", tone: "good" },
      ],
    });
  });

  it("flags an unavailable database as degraded", () => {
    const view = describeStatus(
      { ok: true, value: { service: "svc", api_version: "1", database: "unavailable" } },
      API,
    );
    expect(view.state).toBe("degraded");
    expect(view.state !== "error" && view.items.find((i) => i.label === "Database")).toEqual({
      label: "Database",
      value: "unavailable",
      tone: "bad",
    });
  });

  it("rejects an answer of another shape instead of rendering garbage", () => {
    const view = describeStatus({ ok: true, value: { service: "svc", database: "maybe" } }, API);
    expect(view.state).toBe("error");
    expect(view.title).toBe("Unexpected API answer");
    expect(view.state === "error" && view.detail).toMatch(/api_version/);
  });

  it("reports a refused connection as unreachable, with the low-level reason", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3000"), { code: "ECONNREFUSED" });
    const error = TRPCClientError.from(new TypeError("fetch failed", { cause: refused }));
    const view = describeStatus({ ok: false, error }, API);
    expect(view).toEqual({
      state: "error",
      title: "API unreachable",
      summary: `The API's admin listener at ${API} could not be reached.`,
      detail: "connect ECONNREFUSED 127.0.0.1:3000",
    });
  });

  it("reports a timeout as unreachable", () => {
    const view = describeStatus(
      { ok: false, error: new DOMException("The operation was aborted due to timeout", "TimeoutError") },
      API,
    );
    expect(view.title).toBe("API unreachable");
    expect(view.summary).toBe(`The API's admin listener at ${API} did not answer in time.`);
  });

  it("reports an error answer with its HTTP status", () => {
    const view = describeStatus(
      { ok: false, error: { message: "Internal server error", data: { httpStatus: 500 } } },
      API,
    );
    expect(view).toMatchObject({
      state: "error",
      title: "API error",
      summary: `The API's admin listener at ${API} answered with an error (HTTP 500).`,
      detail: "Internal server error",
    });
  });

  it("never throws on odd errors", () => {
    expect(describeStatus({ ok: false, error: "boom" }, API)).toMatchObject({ state: "error", detail: "boom" });
    expect(describeStatus({ ok: false, error: null }, API)).toMatchObject({ state: "error", detail: "null" });
  });
});

describe("createApiClient + describeStatus against a real socket", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it("queries system.status under /trpc and shows its values", async () => {
    const seen: string[] = [];
    const base = await listen((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          result: { data: { service: "mortgage-guideline-api", api_version: "9.9.9", database: "ok" } },
        }),
      );
    });
    const view = describeStatus(await outcomeOf(createApiClient(base).system.status.query()), base);
    expect(seen).toEqual(["GET /trpc/system.status"]);
    expect(view.state).toBe("healthy");
  });

  it("shows the unreachable state when nothing listens", async () => {
    const base = await listen(() => {});
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const view = describeStatus(await outcomeOf(createApiClient(base).system.status.query()), base);
    expect(view).toMatchObject({ state: "error", title: "API unreachable" });
    expect(view.state === "error" && view.detail).toMatch(/ECONNREFUSED/);
  });
});
