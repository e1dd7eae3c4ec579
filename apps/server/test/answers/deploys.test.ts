import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpChatUpstream } from "@mga/core/conversations";

import { startPacedUpstream, startServerProcess } from "../support/server-process";
import { ACME_TENANT } from "../support/tenants";
import { startTestApp, type TestApp } from "../support/test-app";
import type { UntypedJson } from "../support/untyped-json";
import { readSse } from "../support/upstream-mock";

/**
 * Answers that survive a deploy (issue 23): the built server in a process of its own, on the
 * test's PostgreSQL, beside an in-process instance sharing it, both asking a real (paced)
 * upstream. SIGTERM drains: the stream is told to resume, the other instance follows the answer
 * to its end. kill -9: the answer's lease runs out and a resume ends with the terminal error frame.
 */
let upstream: Awaited<ReturnType<typeof startPacedUpstream>>;
let app: TestApp;
beforeAll(async () => {
  upstream = await startPacedUpstream({ fragments: 40, gapMs: 50 });
  app = await startTestApp({
    upstream: new HttpChatUpstream({ url: upstream.url, idleTimeoutMs: 5_000 }),
    answerStreams: { sweepMs: 500 },
  });
});
afterAll(async () => {
  await app?.close();
  await upstream?.close();
});

/** Opens a stream on `base`, reads `count` frames, and hands back the response for the rest. */
async function streamFrom(base: string, key: string, count: number) {
  const res = await fetch(`${base}/v1/messages`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ message: "Tell me in parts", user: { external_user_id: "lo-1" }, stream: true }),
  });
  expect(res.status).toBe(200);
  const seen: Array<{ frame: UntypedJson; id: string | undefined }> = [];
  let enough: () => void = () => {};
  const reached = new Promise<void>((resolve) => (enough = resolve));
  const whole = readSse(res, (frame, id) => {
    seen.push({ frame, id });
    if (seen.length === count) enough();
  });
  // A connection cut by a killed server ends the read with an error: the frames read so far are what counts.
  const rest = whole.catch(() => ({
    frames: seen.map((entry) => entry.frame),
    ids: seen.map((entry) => entry.id),
    comments: [] as string[],
    rest: "",
  }));
  await reached;
  return { frames: seen.slice(0, count), rest };
}

const resume = (key: string, conversationId: string, lastEventId: string) =>
  fetch(`${app.baseUrl}/v1/conversations/${conversationId}/stream`, {
    headers: { Authorization: `Bearer ${key}`, "Last-Event-ID": lastEventId },
  });

describe("a deploy (SIGTERM)", () => {
  it("drains: the open stream is told to resume, the client resumes on the other instance and gets the whole answer; the server exits once it is written", async () => {
    const server = await startServerProcess({
      databaseUrl: app.t.url,
      upstreamUrl: upstream.url,
      env: { SHUTDOWN_DRAIN_MS: "300" },
    });
    const { key } = await app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read", "chat:write"] });
    const { frames, rest } = await streamFrom(server.baseUrl, key, 5);
    server.child.kill("SIGTERM");
    // The stream ends after the drain with a comment telling the client to resume, and no terminal frame.
    const cut = await rest;
    expect(cut.comments.some((comment) => comment.startsWith(": reconnect"))).toBe(true);
    // Everything read on that connection, the first frames included.
    const seen = cut.frames;
    const ids = cut.ids;
    expect(seen.slice(0, frames.length)).toEqual(frames.map((entry) => entry.frame));
    expect(seen.some((frame) => frame.type === "public_api_complete" || frame.type === "error")).toBe(false);
    // New connections are refused at once: the load balancer sends them elsewhere.
    await expect(fetch(`${server.baseUrl}/v1/me`, { headers: { Authorization: `Bearer ${key}` } })).rejects.toThrow();
    // The other instance follows the answer, which the draining server goes on generating.
    const conversationId = seen[0]?.conversation_id as string;
    const resumed = await readSse(await resume(key, conversationId, ids.at(-1) as string));
    const all = [...seen, ...resumed.frames];
    expect(
      all
        .filter((frame) => frame.type === "content")
        .map((frame) => frame.content)
        .join(""),
    ).toBe(upstream.text);
    expect(resumed.frames.at(-1)?.type).toBe("public_api_complete");
    expect(await server.exited).toBe(0);
    const logged = server.logs.join("\n");
    expect(logged).toContain('"message":"drain over: streams told to resume elsewhere"');
    expect(logged).not.toContain("not written");
    const stored = await app.t.db.sql.query(
      "SELECT status, content, metadata FROM messages WHERE conversation_id = $1 AND role = 'assistant'",
      [conversationId],
    );
    expect(stored.rows).toEqual([
      { status: "complete", content: upstream.text, metadata: expect.objectContaining({ client_disconnected: true }) },
    ]);
  }, 60_000);

  it("with the embedded PostgreSQL, an answer in flight finishes within the drain: whole, stored, and nothing cut short", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "mga-drain-"));
    // Running as root, PostgreSQL runs as the `postgres` user, which must reach the data directory.
    chmodSync(dataDir, 0o755);
    try {
      const server = await startServerProcess({
        databaseUrl: "",
        upstreamUrl: upstream.url,
        env: { DATA_DIR: dataDir, SECRET_KEY: "", SHUTDOWN_DRAIN_MS: "20000" },
      });
      // An organization and key in that server's own database, through its CLI.
      const cli = async (...args: string[]) => {
        const { execFileSync } = await import("node:child_process");
        return JSON.parse(
          execFileSync(process.execPath, [path.resolve(import.meta.dirname, "../../dist/cli.js"), ...args], {
            env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, NODE_ENV: "production" },
            encoding: "utf8",
          }),
        );
      };
      const org = await cli("org:create", "--name", "Drain Lending");
      await cli(
        "tenant:configure",
        "--org",
        org.id,
        "--file",
        path.resolve(import.meta.dirname, "../../../../examples/tenant.json"),
      );
      const { key } = await cli("key:create", "--org", org.id, "--name", "drain", "--scopes", "chat:read,chat:write");
      const { rest } = await streamFrom(server.baseUrl, key, 3);
      server.child.kill("SIGTERM");
      const all = (await rest).frames;
      expect(
        all
          .filter((frame) => frame.type === "content")
          .map((frame) => frame.content)
          .join(""),
      ).toBe(upstream.text);
      expect(all.at(-1)?.type).toBe("public_api_complete");
      expect(await server.exited).toBe(0);
      expect(server.logs.join("\n")).not.toContain("not written");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe("an instance that dies (kill -9)", () => {
  it("leaves its answer leased: once the lease runs out a resume ends with the terminal error frame, and the partial answer is stored as incomplete", async () => {
    const server = await startServerProcess({ databaseUrl: app.t.url, upstreamUrl: upstream.url });
    const { key } = await app.newKey({ tenant: ACME_TENANT, scopes: ["chat:read", "chat:write"] });
    const { frames } = await streamFrom(server.baseUrl, key, 6);
    // Its frames reach the database within a flush.
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill("SIGKILL");
    await server.exited;
    const killedAt = Date.now();
    const conversationId = frames[0]?.frame.conversation_id as string;
    const resumed = await readSse(await resume(key, conversationId, frames.at(-1)?.id as string));
    // The lease (10 s) and a sweep (every 0.5 s here) bound the wait.
    expect(Date.now() - killedAt).toBeLessThan(13_000);
    expect(resumed.frames.at(-1)).toMatchObject({ type: "error", status: 502, error: { code: "upstream_error" } });
    expect(
      resumed.frames.filter((frame) => frame.type === "error" || frame.type === "public_api_complete"),
    ).toHaveLength(1);
    const stored = await app.t.db.sql.query(
      "SELECT status, content, metadata FROM messages WHERE conversation_id = $1 AND role = 'assistant'",
      [conversationId],
    );
    expect(stored.rows).toEqual([
      {
        status: "incomplete",
        content: expect.stringMatching(/^part 0\. part 1\. /),
        metadata: expect.objectContaining({ error_code: "interrupted" }),
      },
    ]);
  }, 60_000);
});
