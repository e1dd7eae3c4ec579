import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openDatabase, type Database } from "../../src/db/database";
import { createApiKey } from "../../src/keys/api-keys";
import { createOrganization } from "../../src/orgs/organizations";
import { createTestDatabase, TEST_SECRETS, type TestDatabase } from "../../src/testing/index";
import type { FinishedRequest } from "../../src/usage/finished-request";
import { listRequestLog } from "../../src/usage/request-log";
import { sweepUsage } from "../../src/usage/sweep-usage";
import { flushUsage, LOG_BATCH_ROWS, recordFinishedRequest, USAGE_FLUSH_MS } from "../../src/usage/usage-buffer";
import { readUsage, usageRange } from "../../src/usage/usage-report";
import { recordStatements } from "../support/database-probes";

/** Usage and the request log (issue 26): recorded in memory, written in a few statements per flush, swept by age. */
let t: TestDatabase;
let db: Database;
let statements: string[];

beforeAll(async () => {
  t = await createTestDatabase();
  db = openDatabase(t.url, { secrets: TEST_SECRETS, maxConnections: 3 });
  statements = recordStatements(db);
});
afterAll(async () => {
  await db.close();
  await t.drop();
});

async function newKey() {
  const org = await createOrganization(t.db, { name: "Usage Lender" });
  const { key } = await createApiKey(t.db, { organizationId: org.id, name: "k", scopes: ["chat:read"] });
  return { organizationId: org.id, keyId: key.id };
}

let sequence = 0;
function finished(
  key: { organizationId: string; keyId: string } | undefined,
  extra: Partial<FinishedRequest> = {},
): FinishedRequest {
  sequence += 1;
  return {
    requestId: `req_${String(sequence).padStart(22, "0")}`,
    at: new Date(),
    method: "GET",
    route: "GET /v1/me",
    routeGroup: "keys",
    status: 200,
    latencyMs: 3.4,
    errorCode: undefined,
    keyId: key?.keyId,
    organizationId: key?.organizationId,
    answer: undefined,
    tokensUsed: undefined,
    resourceId: undefined,
    launch: undefined,
    ...extra,
  };
}

describe("the usage buffer", () => {
  it("runs no statement per request; a flush writes everything in two statements", async () => {
    const key = await newKey();
    const before = statements.length;
    for (let i = 0; i < 100; i += 1) recordFinishedRequest(db, finished(key));
    recordFinishedRequest(
      db,
      finished(key, { route: "POST /v1/messages", routeGroup: "conversations", answer: "json", tokensUsed: 40 }),
    );
    recordFinishedRequest(
      db,
      finished(key, {
        route: "POST /v1/messages",
        routeGroup: "conversations",
        status: 502,
        errorCode: "upstream_error",
      }),
    );
    expect(statements.length).toBe(before);
    await flushUsage(db);
    expect(statements.slice(before)).toHaveLength(2);
    const report = await readUsage(t.db, { ...usageRange({ days: 1 }), organizationId: key.organizationId });
    expect(report.totals).toMatchObject({
      requests: 102,
      jsonAnswers: 1,
      tokensUsed: 40,
      upstreamErrors: 1,
      byRouteGroup: { keys: 100, conversations: 2 },
    });
    expect(report.totals.byStatusClass).toEqual({ "2xx": 101, "3xx": 0, "4xx": 0, "5xx": 1 });
    const log = await listRequestLog(t.db, { organizationId: key.organizationId, status: "5xx", limit: 10 });
    expect(log.requests.map((entry) => entry.errorCode)).toEqual(["upstream_error"]);
  });

  it("keeps what a failed flush could not write, and writes it with the next", async () => {
    const key = await newKey();
    recordFinishedRequest(db, finished(key));
    const sql = db.sql;
    db.sql = { query: (() => Promise.reject(new Error("connection lost"))) as unknown as Database["sql"]["query"] };
    await expect(flushUsage(db)).rejects.toThrow("connection lost");
    db.sql = sql;
    recordFinishedRequest(db, finished(key));
    await flushUsage(db);
    const report = await readUsage(t.db, { ...usageRange({ days: 1 }), organizationId: key.organizationId });
    expect(report.totals.requests).toBe(2);
    expect((await listRequestLog(t.db, { organizationId: key.organizationId, limit: 10 })).requests).toHaveLength(2);
  });

  it("writes a full batch of log rows at once, not after the timer; not while flushes fail", async () => {
    const key = await newKey();
    const logged = async () =>
      (await t.db.sql.query(`SELECT count(*)::int AS n FROM request_log WHERE api_key_id = $1`, [key.keyId])).rows[0]
        .n as number;
    // While the database refuses the flushes, a full batch waits for the timer (no retry per request).
    const sql = db.sql;
    let refused = 0;
    db.sql = {
      query: (() => {
        refused += 1;
        return Promise.reject(new Error("connection lost"));
      }) as unknown as Database["sql"]["query"],
    };
    recordFinishedRequest(db, finished(key));
    await expect(flushUsage(db)).rejects.toThrow("connection lost");
    const refusedBefore = refused;
    for (let i = 0; i < LOG_BATCH_ROWS; i += 1) recordFinishedRequest(db, finished(key));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(refused).toBe(refusedBefore);
    db.sql = sql;
    await flushUsage(db);
    expect(await logged()).toBe(LOG_BATCH_ROWS + 1);

    // Once flushes succeed again, a full batch is written on the next turn, well before USAGE_FLUSH_MS.
    const started = Date.now();
    for (let i = 0; i < LOG_BATCH_ROWS; i += 1) recordFinishedRequest(db, finished(key));
    await expect.poll(logged, { timeout: USAGE_FLUSH_MS - 1_000, interval: 50 }).toBe(2 * LOG_BATCH_ROWS + 1);
    expect(Date.now() - started).toBeLessThan(USAGE_FLUSH_MS);
  });

  it("skips the rows of a key and organization deleted before the flush, and writes the others", async () => {
    const gone = await newKey();
    const kept = await newKey();
    recordFinishedRequest(db, finished(gone));
    recordFinishedRequest(db, finished(kept));
    recordFinishedRequest(db, finished(undefined, { status: 401, errorCode: "unauthorized" }));
    // What deleting an organization with its keys comes to (the console refuses it while keys exist).
    await t.db.sql.query(`DELETE FROM api_keys WHERE id = $1`, [gone.keyId]);
    await t.db.sql.query(`DELETE FROM organizations WHERE id = $1`, [gone.organizationId]);
    await flushUsage(db);
    expect(
      (await readUsage(t.db, { ...usageRange({ days: 1 }), organizationId: kept.organizationId })).totals.requests,
    ).toBe(1);
    const { rows } = await t.db.sql.query(
      `SELECT count(*)::int AS n FROM request_log WHERE organization_id IS NULL AND status = 401`,
    );
    expect(rows[0].n).toBeGreaterThanOrEqual(1);
    const goneRows = await t.db.sql.query(`SELECT count(*)::int AS n FROM request_log WHERE organization_id = $1`, [
      gone.organizationId,
    ]);
    expect(goneRows.rows[0].n).toBe(0);
  });

  it("writes a log batch once when a flush committed but its answer was lost, and the rows recorded since", async () => {
    const key = await newKey();
    const logged = async () =>
      (await t.db.sql.query(`SELECT request_id FROM request_log WHERE api_key_id = $1`, [key.keyId])).rows.map(
        (row: { request_id: string }) => row.request_id,
      );
    const first = [finished(key), finished(key)];
    for (const request of first) recordFinishedRequest(db, request);
    // The log's INSERT commits, then the connection drops before its answer: the buffer cannot
    // know, and puts the rows back.
    const sql = db.sql;
    db.sql = {
      query: (async (text: string, values: unknown[]) => {
        const result = await sql.query(text, values);
        if (text.includes("INSERT INTO request_log")) throw new Error("connection lost after the commit");
        return result;
      }) as unknown as Database["sql"]["query"],
    };
    await expect(flushUsage(db)).rejects.toThrow("connection lost after the commit");
    db.sql = sql;
    expect((await logged()).sort()).toEqual(first.map((request) => request.requestId).sort());
    const later = finished(key);
    recordFinishedRequest(db, later);
    await flushUsage(db);
    expect((await logged()).sort()).toEqual([...first, later].map((request) => request.requestId).sort());
    expect(db.instance.usage?.failing).toBe(false);
  });

  it("the sweep deletes log rows past their retention and usage rows past 400 days", async () => {
    const key = await newKey();
    const old = new Date(Date.now() - 8 * 86_400_000);
    recordFinishedRequest(db, finished(key, { at: old }));
    recordFinishedRequest(db, finished(key));
    recordFinishedRequest(db, finished(key, { at: new Date(Date.now() - 401 * 86_400_000) }));
    await flushUsage(db);
    await sweepUsage(t.db, { requestLogDays: 7, usageDays: 30 });
    const log = await listRequestLog(t.db, { organizationId: key.organizationId, limit: 10 });
    expect(log.requests).toHaveLength(1);
    // usageDays below 400 is raised to 400: the 8-day-old day stays, the 401-day-old one goes.
    const { rows } = await t.db.sql.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM usage_daily WHERE api_key_id = $1 ORDER BY day`,
      [key.keyId],
    );
    expect(rows.map((row) => row.day)).toEqual([old.toISOString().slice(0, 10), new Date().toISOString().slice(0, 10)]);
  });
});
