import { Agent, request as httpRequest } from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, expect } from "vitest";

import { buildOpenApiDocument } from "@mga/api";
import { ERROR_CODES } from "@mga/core/errors";
import { createApiKey, SCOPES, type Scope } from "@mga/core/keys";
import { bindLaunchKey, completeSiteLogin } from "@mga/core/launches";
import { createIntegration } from "@mga/core/partners/integrations";
import { createStaff, signInStaff } from "@mga/core/staff";
import { createWebhookEndpoint } from "@mga/core/webhooks";

import { undocumentedStatus } from "../support/documented-statuses";
import { ACME_TENANT } from "../support/tenants";
import type { UntypedJson } from "../support/untyped-json";
import { answer, upstreamAnswers, upstreamServer, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * Property-based fuzzing of every surface (the /v1 REST routes of the OpenAPI document, the two
 * SSE message routes, /trpc on the admin listener, /site and /embed): hundreds of generated
 * requests, each one malformed in a way that can never be accepted (the malformations of the
 * request pipeline below, and per route the well-formed requests that are refused all the same),
 * each of which must be answered with a 4xx: the error envelope with its request id (or, for
 * what tRPC itself refuses on /trpc, tRPC's error shape), never a 5xx, never an error log line.
 * After every batch the control key reads the fixture back and the rows of every table are
 * compared with the snapshot taken before the first batch: nothing may have changed.
 *
 * Deterministic: one fixed seed per batch (FUZZ_SEED=<n> explores other ones). A batch does not
 * stop at the first bad answer: it records every one and fails at the end listing them all,
 * each with the request that reproduces it.
 */
let setup: ReturnType<typeof useAppWithMockedUpstream>;

export const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const MAX_BODY_BYTES = 1024 * 1024;
const INTEGRATION = "fuzz-los";
const TEAM = "fuzz-team";
const USER = "fuzz-user";
const USER_EMAIL = "fuzz-user@acme.test";
const STAFF = { email: "fuzz-admin@mga.test", password: "fuzz admin password 1" };
const ALL_SCOPES: Scope[] = [...SCOPES];
const COUNTED_TABLES = [
  "organizations",
  "api_keys",
  "conversations",
  "messages",
  "partner_users",
  "partner_teams",
  "lifecycle_operations",
  "import_jobs",
  "launches",
  "embed_sessions",
  "staff_accounts",
  "staff_sessions",
  "idempotency_records",
  "audit_log",
  "notification_outbox",
  // and a few more that no malformed request may touch either
  "integrations",
  "integration_aliases",
  "launch_bindings",
  "tenant_configurations",
  "site_accounts",
  "chat_grants",
  "chat_tokens",
  "import_job_rows",
  "staff_invites",
  "events",
  "webhook_endpoints",
  "webhook_deliveries",
];
/** Tables whose rows (not only their number) must stay exactly as they were. */
const FROZEN_TABLES = [
  "organizations",
  "partner_users",
  "partner_teams",
  "conversations",
  "messages",
  "integrations",
  "tenant_configurations",
  "staff_accounts",
];

// ---------------------------------------------------------------------------------------
// Fixture: one organization with everything a route can name, made through core and the API.
// ---------------------------------------------------------------------------------------
export interface Fixture {
  fuzzKey: string;
  fuzzKeyId: string;
  controlKey: string;
  /** Owned by the fuzz key: the conversation the fuzzed routes name. */
  conversationId: string;
  /** Owned by the control key: read back after every batch. */
  controlConversationId: string;
  staffCookie: string;
  staffCsrf: string;
  chatToken: string;
  /** Real cursors, each refused where it is presented (by template; `*` for every other list). */
  foreignCursors: Record<string, string[]>;
  /** The fuzz key's organization (the console's usage inputs name it), and a webhook endpoint of it (the console's webhook forms). */
  organizationId: string;
  endpointId: string;
}
export let f: Fixture;
export let snapshot: Snapshot;
export let sent = 0;
const JSON_CT = { "Content-Type": "application/json" };
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/**
 * The fuzz fixture of one test file: a server with a mocked upstream, an organization with a
 * team, a user, conversations, a signed-in hosted chat, a webhook endpoint and a signed-in staff
 * admin; then the snapshot every batch is compared with.
 */
export function useFuzzFixture(): void {
  setup = useAppWithMockedUpstream();
  beforeAll(async () => {
    const app = setup.app;
    const db = app.t.db;
    const fuzz = await app.newKey({ tenant: ACME_TENANT, scopes: ALL_SCOPES, rateLimitPerMinute: 100_000 });
    const control = await createApiKey(db, {
      organizationId: fuzz.organizationId,
      name: "fuzz control",
      scopes: ["chat:read", "chat:write", "embed:users:read", "embed:teams:read"],
      rateLimitPerMinute: 100_000,
    });
    await createIntegration(db, { organizationId: fuzz.organizationId, slug: INTEGRATION });
    await bindLaunchKey(db, { apiKeyId: fuzz.id, publicName: INTEGRATION });
    const call = (method: string, path: string, key: string | undefined, body?: unknown) =>
      app.request(path, {
        method,
        key,
        headers: JSON_CT,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const team = await call("PUT", `/v1/integrations/${INTEGRATION}/teams/${TEAM}`, fuzz.key, { name: "Fuzz team" });
    expect(team.status, team.text).toBe(201);
    const user = await call("PUT", `/v1/integrations/${INTEGRATION}/users/${USER}`, fuzz.key, {
      email: USER_EMAIL,
      name: "Fuzz User",
      team_external_id: TEAM,
    });
    expect(user.status, user.text).toBe(201);

    upstreamAnswers(answer());
    const converse = async (key: string) => {
      const res = await call("POST", "/v1/messages", key, {
        message: "What is the FHA minimum down payment?",
        user: { external_user_id: "fuzz-end-user" },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.conversation_id as string;
    };
    const conversationId = await converse(fuzz.key);
    const controlConversationId = await converse(control.plaintext);
    // From here on nothing answers as the upstream: a fuzzed request that reached it would be a 502.
    upstreamServer.resetHandlers();

    // Two conversations per list below, so that each has a next page, and the cursors of real pages.
    const startConversation = async (key: string, externalUserId: string) =>
      expect(
        (await call("POST", "/v1/conversations", key, { user: { external_user_id: externalUserId } })).status,
      ).toBe(201);
    await startConversation(fuzz.key, "fuzz-end-user");
    await startConversation(fuzz.key, "fuzz-other-user");
    await startConversation(fuzz.key, "fuzz-other-user");
    await startConversation(control.plaintext, "fuzz-end-user");
    const nextCursor = async (key: string, path: string) => {
      const res = await app.request(path, { key });
      expect(typeof res.body?.next_cursor, `${path}: ${res.text}`).toBe("string");
      return res.body.next_cursor as string;
    };
    const cursors = {
      anotherKeysList: await nextCursor(control.plaintext, "/v1/conversations?external_user_id=fuzz-end-user&limit=1"),
      anotherUsersList: await nextCursor(fuzz.key, "/v1/conversations?external_user_id=fuzz-other-user&limit=1"),
      ownList: await nextCursor(fuzz.key, "/v1/conversations?external_user_id=fuzz-end-user&limit=1"),
      anotherConversationsHistory: await nextCursor(
        control.plaintext,
        `/v1/conversations/${controlConversationId}/messages?limit=1`,
      ),
      newestFirstHistory: await nextCursor(fuzz.key, `/v1/conversations/${conversationId}/messages?limit=1&order=desc`),
      ownHistory: await nextCursor(fuzz.key, `/v1/conversations/${conversationId}/messages?limit=1`),
    };
    const foreignCursors = {
      "/v1/conversations": [cursors.anotherKeysList, cursors.anotherUsersList, cursors.ownHistory],
      // The fuzzed history reads oldest first.
      "/v1/conversations/{conversationId}/messages": [
        cursors.anotherConversationsHistory,
        cursors.newestFirstHistory,
        cursors.ownList,
      ],
      "*": Object.values(cursors),
    };

    // A signed-in hosted chat: launch, consume, site login, chat token.
    const launch = await call("POST", "/v1/embed-sessions", fuzz.key, {
      integration: INTEGRATION,
      user: { external_user_id: USER },
      loan_context: { external_loan_id: "LN-FUZZ-1" },
    });
    expect(launch.status, launch.text).toBe(201);
    const code = new URLSearchParams(new URL(launch.body.launch_url as string).hash.slice(1)).get("code");
    const consumed = await call("POST", "/embed/api/launches/consume", undefined, { code });
    expect(consumed.status, consumed.text).toBe(200);
    const siteAccountId = (
      await db.sql.query("SELECT site_account_id FROM partner_users WHERE email = $1", [USER_EMAIL])
    ).rows[0].site_account_id as string;
    await completeSiteLogin(db, { sessionToken: consumed.body.session_token, siteAccountId });
    const session = await app.request("/embed/api/session", {
      headers: { Authorization: `Bearer ${consumed.body.session_token}` },
    });
    expect(session.body?.status, session.text).toBe("authorized");

    const { endpoint } = await createWebhookEndpoint(db, {
      organizationId: fuzz.organizationId,
      url: "https://hooks.example.com/fuzz",
      eventTypes: ["user.disabled"],
      allowPrivateAddresses: false,
    });
    await createStaff(db, { ...STAFF, role: "admin", actor: "fuzz-test" });
    const staff = await signInStaff(db, { ...STAFF, address: "127.0.0.1" });

    f = {
      fuzzKey: fuzz.key,
      fuzzKeyId: fuzz.id,
      controlKey: control.plaintext,
      conversationId,
      controlConversationId,
      staffCookie: `mga_staff=${encodeURIComponent(staff.sessionToken)}`,
      staffCsrf: staff.staff.csrfToken,
      chatToken: session.body.chat_token as string,
      foreignCursors,
      organizationId: fuzz.organizationId,
      endpointId: endpoint.id,
    };
    snapshot = await stableSnapshot();
  });

  afterAll(() => agent.destroy());
}

// ---------------------------------------------------------------------------------------
// The control: what the control key reads, and the rows of every table.
// ---------------------------------------------------------------------------------------
export interface Snapshot {
  reads: Record<string, unknown>;
  counts: Record<string, number>;
  rows: Record<string, string>;
}

export async function takeSnapshot(): Promise<Snapshot> {
  const app = setup.app;
  const reads: Record<string, unknown> = {};
  for (const path of [
    `/v1/integrations/${INTEGRATION}/users?limit=100`,
    `/v1/integrations/${INTEGRATION}/users/${USER}`,
    `/v1/integrations/${INTEGRATION}/teams?limit=100`,
    `/v1/conversations/${f.controlConversationId}`,
    `/v1/conversations/${f.controlConversationId}/messages`,
    `/v1/conversations/${f.controlConversationId}/messages?limit=1&order=desc`,
    "/v1/conversations?external_user_id=fuzz-end-user",
  ]) {
    const res = await app.request(path, { key: f.controlKey });
    expect(res.status, `control GET ${path}: ${res.text}`).toBe(200);
    reads[path] = withoutRequestIds(res.body);
  }
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES)
    counts[table] = (await app.t.db.sql.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  const rows: Record<string, string> = {};
  for (const table of FROZEN_TABLES) {
    rows[table] = (
      await app.t.db.sql.query(
        `SELECT coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS h FROM ${table} t`,
      )
    ).rows[0].h;
  }
  return { reads, counts, rows };
}

/** The snapshot once background work (jobs of the fixture's provisioning) has settled. */
async function stableSnapshot(): Promise<Snapshot> {
  let previous = await takeSnapshot();
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const next = await takeSnapshot();
    if (JSON.stringify(next) === JSON.stringify(previous)) return next;
    previous = next;
  }
  throw new Error("the fixture never settled");
}

function withoutRequestIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRequestIds);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== "request_id")
        .map(([key, item]) => [key, withoutRequestIds(item)]),
    );
  }
  return value;
}

// ---------------------------------------------------------------------------------------
// Requests: sent raw (node:http), so a malformed target or body reaches the server as written.
// ---------------------------------------------------------------------------------------
export interface Case {
  /** Which malformation: `<family>` or `<family>:<variant>`. */
  family: string;
  admin: boolean;
  method: string;
  /** The request target exactly as sent (path and query). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
  /** Send the body in chunks without a Content-Length. */
  chunked?: boolean;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: UntypedJson;
}

export function send(c: Case): Promise<Answer> {
  sent += 1;
  const base = new URL(c.admin ? setup.app.adminUrl : setup.app.baseUrl);
  const headers: Record<string, string> = { ...c.headers };
  if (c.body && !c.chunked) headers["Content-Length"] = String(c.body.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: base.hostname, port: base.port, method: c.method, path: c.target, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on("error", reject);
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error("no answer within 15 s")));
    req.on("error", reject);
    if (c.body && c.chunked) {
      const body = c.body;
      let offset = 0;
      const write = () => {
        while (offset < body.length) {
          const chunk = body.subarray(offset, offset + 64 * 1024);
          offset += chunk.length;
          if (!req.write(chunk)) {
            req.once("drain", write);
            return;
          }
        }
        req.end();
      };
      write();
    } else req.end(c.body);
  });
}

/** The spec's error envelope, any 4xx: exactly {error: {code, message, request_id}}, request_id = X-Request-Id. */
function expectErrorEnvelope(res: Answer): string | undefined {
  if (res.status < 400 || res.status >= 500) return `status ${res.status}`;
  const requestId = res.headers["x-request-id"];
  if (typeof requestId !== "string" || !/^req_[0-9A-Za-z]{22}$/.test(requestId))
    return `X-Request-Id header missing or malformed: ${String(requestId)}`;
  if (!String(res.headers["content-type"] ?? "").startsWith("application/json"))
    return `content type ${String(res.headers["content-type"])}`;
  const body = res.body;
  if (body === null || typeof body !== "object" || Object.keys(body).join() !== "error")
    return "not the error envelope";
  const error = body.error;
  if (error === null || typeof error !== "object" || Object.keys(error).sort().join() !== "code,message,request_id")
    return "not exactly {code, message, request_id}";
  if (!ERROR_CODES.includes(error.code)) return `unknown code ${String(error.code)}`;
  if (typeof error.message !== "string" || error.message === "") return "empty message";
  if (error.request_id !== requestId)
    return `request_id ${String(error.request_id)} differs from X-Request-Id ${requestId}`;
  return undefined;
}

/**
 * What /trpc answers on the admin listener, whoever refused (our pipeline before tRPC, or a
 * procedure): tRPC's error shape, which the console reads, with the same 4xx status, and the
 * spec's envelope inside it carrying our X-Request-Id.
 */
function expectTrpcError(res: Answer): string | undefined {
  if (res.status < 400 || res.status >= 500) return `status ${res.status}`;
  const requestId = res.headers["x-request-id"];
  if (typeof requestId !== "string" || !/^req_[0-9A-Za-z]{22}$/.test(requestId))
    return `X-Request-Id header missing or malformed: ${String(requestId)}`;
  const error = res.body?.error;
  if (error === null || typeof error !== "object") return "no error object";
  if (typeof error.message !== "string" || typeof error.code !== "number") return "not tRPC's error shape";
  if (error.data?.httpStatus !== res.status)
    return `data.httpStatus ${String(error.data?.httpStatus)} differs from the status ${res.status}`;
  if (error.envelope?.error?.request_id !== requestId)
    return `envelope.error.request_id ${String(error.envelope?.error?.request_id)} differs from X-Request-Id ${requestId}`;
  return undefined;
}

/** The answer a case must get: tRPC's error shape under /trpc, the envelope everywhere else. */
export const expectRefusal = (c: Case, res: Answer) =>
  c.admin && c.target.startsWith("/trpc/") ? expectTrpcError(res) : expectErrorEnvelope(res);

interface Violation {
  family: string;
  request: string;
  status: number | string;
  problem: string;
  response: string;
}

function describeCase(c: Case): string {
  const headers = Object.entries(c.headers)
    .map(([name, value]) => `${name}: ${value.length > 60 ? `${value.slice(0, 57)}...` : value}`)
    .join("; ");
  const body =
    c.body === undefined
      ? ""
      : ` body(${c.body.length}${c.chunked ? ", chunked" : ""})=${JSON.stringify(c.body.subarray(0, 160).toString("latin1"))}`;
  const target = c.target.length > 200 ? `${c.target.slice(0, 200)}...(${c.target.length} chars)` : c.target;
  return `${c.admin ? "[admin] " : ""}${c.method} ${target} {${headers}}${body}`;
}

/**
 * One batch: `numRuns` generated requests of one surface, then the control. Every bad answer is
 * recorded (the property itself never fails, so one defect does not hide the others); the batch
 * fails at the end with all of them.
 */
export async function runBatch(name: string, arbitrary: fc.Arbitrary<Case>, numRuns: number, seed: number) {
  const violations: Violation[] = [];
  const before = sent;
  const logsBefore = setup.app.logs.length;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (c) => {
      let res: Answer;
      try {
        res = await send(c);
      } catch (error) {
        violations.push({
          family: c.family,
          request: describeCase(c),
          status: "-",
          problem: `no answer: ${(error as Error).message}`,
          response: "",
        });
        return;
      }
      const problem =
        expectRefusal(c, res) ?? (c.admin ? undefined : undocumentedStatus(c.method, c.target, res.status));
      if (problem)
        violations.push({
          family: c.family,
          request: describeCase(c),
          status: res.status,
          problem,
          response: res.text.slice(0, 240),
        });
    }),
    { numRuns, seed },
  );
  expect(sent - before).toBeGreaterThanOrEqual(numRuns);

  // The control: nothing changed, and nothing was logged as an error.
  const after = await takeSnapshot();
  const changes = differences(snapshot, after);
  const errorLines = setup.app.logs.slice(logsBefore).filter((line) => line.includes('"level":"error"'));
  // Later batches are judged on their own changes only.
  if (changes.length > 0) snapshot = after;
  if (violations.length === 0 && errorLines.length === 0 && changes.length === 0) return;
  throw new Error(
    [
      `${name} (seed ${seed}, FUZZ_SEED=${SEED}): ${violations.length} of ${sent - before} malformed requests not answered as expected`,
      ...violations
        .slice(0, 25)
        .map((v) => `  [${v.family}] ${v.request}\n      -> ${v.status}: ${v.problem}; ${v.response}`),
      ...(violations.length > 25 ? [`  ... and ${violations.length - 25} more`] : []),
      `the control: ${changes.length === 0 ? "no change" : `changed since the snapshot:\n${changes.map((line) => `  ${line}`).join("\n")}`}`,
      `error log lines: ${errorLines.length}`,
      ...errorLines.slice(0, 5).map((line) => `  ${line.slice(0, 400)}`),
    ].join("\n"),
  );
}

/** What differs between two snapshots, one line per changed read, count or table. */
export function differences(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [path, read] of Object.entries(before.reads)) {
    if (JSON.stringify(read) !== JSON.stringify(after.reads[path]))
      lines.push(
        `GET ${path}: ${JSON.stringify(read).slice(0, 300)} -> ${JSON.stringify(after.reads[path]).slice(0, 300)}`,
      );
  }
  for (const [table, count] of Object.entries(before.counts))
    if (after.counts[table] !== count) lines.push(`count(${table}): ${count} -> ${after.counts[table]}`);
  for (const [table, hash] of Object.entries(before.rows))
    if (after.rows[table] !== hash) lines.push(`rows of ${table} changed`);
  return lines;
}

// ---------------------------------------------------------------------------------------
// Malformations. Every one is refused by the request pipeline whatever the route, the
// credentials and the rest of the request: none can ever be accepted.
// ---------------------------------------------------------------------------------------

/** Percent-encoding that decodes to nothing (or to NUL) whatever follows it. */
const BAD_ESCAPES = [
  "%zz",
  "%ED%A0%80",
  "%00",
  "%C0%80",
  "%FF",
  "%C3%28",
  "%80",
  "%F4%90%80%80",
  "%e0%80%80",
  "%0G",
  "%%",
];
/** Malformed only where nothing that could complete them follows: at the end of a segment or value. */
const INCOMPLETE_ESCAPES = ["%", "%E0%A4%A", "%c3", "%2", "%F0%9F%98"];
const DEPTH = { min: 65, max: 5000 };
/** Numbers JSON text can hold but a JavaScript number cannot (they parse to ±Infinity). */
const NON_FINITE = ["1e400", "-1e999", "1E+400", "2e308", "-2e308", "1.8e308", "-0.5e400", "123456789e999"];
/** Byte sequences that are not UTF-8, whatever ASCII surrounds them. */
const BAD_UTF8 = [
  [0xff],
  [0xfe],
  [0x80],
  [0xc0, 0xaf],
  [0xc3, 0x28],
  [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xe9],
];
const WRONG_CONTENT_TYPES = [
  "text/plain",
  "text/plain; charset=utf-8",
  "application/xml",
  "text/json",
  "application/jsonp",
  "application/json-patch+json",
  "application/vnd.api+json",
  "application/javascript",
  "application/octet-stream",
  "multipart/form-data; boundary=fuzz",
  "image/png",
  "application/ json",
  "json",
  "", // no Content-Type at all
];
/** Literal values JSON does not have. */
const NOT_JSON_VALUES = [
  "NaN",
  "Infinity",
  "-Infinity",
  "undefined",
  "True",
  "nul",
  "0x10",
  "01",
  ".5",
  "+1",
  "1.",
  '"\\x"',
  '"tab\there"',
  "'single'",
  '"\\u12"',
  "[1,]",
  "{,}",
];
const NOT_JSON_SUFFIXES = ["x", "}", "]", ",", "{}", " 1", "/*c*/", "//c", "\u0000", '"'];
// Not a byte order mark: the UTF-8 decoder drops a leading one, and RFC 8259 lets a parser ignore it.
const NOT_JSON_PREFIXES = [")]}'\n", "x", ",", "[", "{", "\u00a0"];
const MARK = "@@FUZZ@@";

for (const text of NON_FINITE) if (Number.isFinite(JSON.parse(text))) throw new Error(`${text} is finite`);
for (const bytes of BAD_UTF8) {
  for (const around of [
    ["", ""],
    ["a", "a"],
  ] as const) {
    const buffer = Buffer.concat([Buffer.from(around[0]), Buffer.from(bytes), Buffer.from(around[1])]);
    let decoded = true;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(buffer);
    } catch {
      decoded = false;
    }
    if (decoded) throw new Error(`${bytes.join()} is UTF-8`);
  }
}
for (const token of [...BAD_ESCAPES, ...INCOMPLETE_ESCAPES]) {
  for (const text of [token, `a${token}`, `${token}a`, `${token}/`]) {
    if (!INCOMPLETE_ESCAPES.includes(token) || !text.endsWith("a")) {
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(text);
      } catch {
        decoded = undefined;
      }
      if (decoded !== undefined && !decoded.includes("\u0000")) throw new Error(`${text} decodes`);
    }
  }
}

/** A JSON text that must not parse: the generator's promise, checked. */
function notJson(text: string): string {
  let parsed = true;
  try {
    JSON.parse(text);
  } catch {
    parsed = false;
  }
  if (parsed) throw new Error(`generated JSON text is valid: ${text.slice(0, 200)}`);
  return text;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The string slots (keys and string values) of a value, and its containers, by path. */
function slotsOf(
  value: Json,
  path: Array<string | number> = [],
  out = {
    strings: [] as Array<{ path: Array<string | number>; key: boolean }>,
    containers: [] as Array<Array<string | number>>,
  },
) {
  if (typeof value === "string") out.strings.push({ path, key: false });
  else if (Array.isArray(value)) {
    out.containers.push(path);
    value.forEach((item, index) => slotsOf(item, [...path, index], out));
  } else if (value !== null && typeof value === "object") {
    out.containers.push(path);
    for (const [key, item] of Object.entries(value)) {
      out.strings.push({ path: [...path, key], key: true });
      slotsOf(item, [...path, key], out);
    }
  }
  return out;
}

const clone = (value: Json): Json => JSON.parse(JSON.stringify(value)) as Json;

function at(value: Json, path: Array<string | number>): Json {
  let node = value;
  for (const part of path) node = (node as Record<string | number, Json>)[part] as Json;
  return node;
}

/** The JSON text of `value` with `raw` (escapes, as JSON text) inserted into one of its strings or keys. */
function injectIntoString(value: Json, pick: number, offset: number, raw: string): string {
  const copy = clone(value);
  const { strings } = slotsOf(copy);
  // No string to put it in: a string of its own. Valid JSON (so not notJson's), refused for its text like the others.
  if (strings.length === 0) return `{"text":"${raw}"}`;
  const slot = strings[pick % strings.length] as { path: Array<string | number>; key: boolean };
  const parent = at(copy, slot.path.slice(0, -1)) as Record<string | number, Json>;
  const last = slot.path[slot.path.length - 1] as string | number;
  if (slot.key) {
    const key = String(last);
    const cut = offset % (key.length + 1);
    const entries = Object.entries(parent).map(
      ([k, v]) => [k === key ? `${k.slice(0, cut)}${MARK}${k.slice(cut)}` : k, v] as const,
    );
    for (const k of Object.keys(parent)) delete parent[k];
    for (const [k, v] of entries) parent[k] = v;
  } else {
    const text = parent[last] as string;
    const cut = offset % (text.length + 1);
    parent[last] = `${text.slice(0, cut)}${MARK}${text.slice(cut)}`;
  }
  return JSON.stringify(copy).replace(MARK, () => raw);
}

/** The JSON text of `value` with the JSON text `raw` as a value somewhere: added, or replacing one. */
function injectValue(value: Json, pick: number, name: string, raw: string): string {
  const copy = clone(value);
  const { containers } = slotsOf(copy);
  const path = containers[pick % containers.length] ?? [];
  const node = at(copy, path);
  const placeholder = `"${MARK}"`;
  if (Array.isArray(node)) node.splice(pick % (node.length + 1), 0, MARK);
  else if (node !== null && typeof node === "object") {
    const keys = Object.keys(node);
    // Replace an existing field half the time, else add one.
    const key = keys.length > 0 && pick % 2 === 0 ? (keys[pick % keys.length] as string) : `zz_${name}`;
    node[key] = MARK;
  } else return raw;
  return JSON.stringify(copy).replace(placeholder, () => raw);
}

function deepText(depth: number, shape: number, inner: string): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 0; level < depth; level += 1) {
    const object = shape === 0 ? false : shape === 1 ? true : ((shape >> (level % 24)) & 1) === 1;
    open.push(object ? '{"a":' : "[");
    close.push(object ? "}" : "]");
  }
  return `${open.join("")}${inner}${close.reverse().join("")}`;
}

/** Where a bad escape goes into a piece of text (incomplete ones only at its end). */
function withEscape(text: string, token: string, offset: number): string {
  const cut = INCOMPLETE_ESCAPES.includes(token) ? text.length : offset % (text.length + 1);
  return `${text.slice(0, cut)}${token}${text.slice(cut)}`;
}

const tokenArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BAD_ESCAPES) },
  { weight: 1, arbitrary: fc.constantFrom(...INCOMPLETE_ESCAPES) },
);
const nameArb = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const safeTextArb = fc.stringMatching(/^[A-Za-z0-9._~-]{1,16}$/);

/** A JSON text that is not JSON: broken, truncated, garbage or with values JSON lacks. */
function badJsonArb(value: Json): fc.Arbitrary<{ variant: string; text: string }> {
  const text = JSON.stringify(value);
  return fc
    .oneof(
      fc
        .integer({ min: 1, max: Math.max(1, text.length - 1) })
        .map((cut) => ({ variant: "truncated", text: text.slice(0, cut) })),
      fc
        .constantFrom(...NOT_JSON_SUFFIXES)
        .map((suffix) => ({ variant: "trailing-garbage", text: `${text}${suffix}` })),
      fc.constantFrom(...NOT_JSON_PREFIXES).map((prefix) => ({ variant: "leading-garbage", text: `${prefix}${text}` })),
      fc.constant({ variant: "trailing-comma", text: `${text.slice(0, -1)},}` }),
      // Only where there are quotes to change: an empty body (`{}`, POST …/cancel) has none.
      ...(text.includes('"')
        ? [
            fc.constant({ variant: "single-quotes", text: text.replaceAll('"', "'") }),
            fc.constant({ variant: "unquoted-key", text: text.replace(/"([^"]+)":/, "$1:") }),
          ]
        : []),
      fc
        .tuple(fc.nat(), nameArb, fc.constantFrom(...NOT_JSON_VALUES))
        .map(([pick, name, raw]) => ({ variant: `value ${raw}`, text: injectValue(value, pick, name, raw) })),
      fc
        .string({ minLength: 1, maxLength: 200 })
        .filter((s) => {
          if (s.trim() === "") return false;
          try {
            JSON.parse(s);
            return false;
          } catch {
            return true;
          }
        })
        .map((s) => ({ variant: "garbage", text: s })),
    )
    .map(({ variant, text }) => ({ variant, text: notJson(text) }));
}

/** JSON texts refused by the input checks (depth, NUL, surrogates, numbers, syntax): `maxDepth` for URLs. */
function invalidJsonTextArb(value: Json, maxDepth: number): fc.Arbitrary<{ variant: string; text: string }> {
  return fc.oneof(
    fc
      .tuple(
        fc.integer({ min: DEPTH.min, max: maxDepth }),
        fc.nat(2),
        fc.nat(),
        fc.constantFrom("", "1", '"x"', "null", "[]", "{}"),
        fc.nat(),
        nameArb,
        fc.boolean(),
      )
      .map(([depth, shape, bits, inner, pick, name, whole]) => {
        const deep = deepText(depth, shape === 2 ? 2 + bits : shape, shape === 1 && inner === "" ? "1" : inner);
        return { variant: `deep ${depth}`, text: whole ? deep : injectValue(value, pick, name, deep) };
      }),
    fc
      .tuple(fc.nat(), fc.nat(), fc.constantFrom("\\u0000", "\\u0000\\u0000", "a\\u0000"))
      .map(([pick, offset, raw]) => ({ variant: "nul", text: injectIntoString(value, pick, offset, raw) })),
    fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0xd800, max: 0xdfff })).map(([pick, offset, unit]) => ({
      variant: `surrogate ${unit.toString(16)}`,
      text: injectIntoString(value, pick, offset, `\\u${unit.toString(16)}`),
    })),
    fc
      .tuple(fc.nat(), nameArb, fc.constantFrom(...NON_FINITE))
      .map(([pick, name, raw]) => ({ variant: `number ${raw}`, text: injectValue(value, pick, name, raw) })),
    badJsonArb(value).map(({ variant, text }) => ({ variant: `json ${variant}`, text })),
  );
}

// ---------------------------------------------------------------------------------------
// Routes and the cases of each.
// ---------------------------------------------------------------------------------------
export type Surface = "v1" | "sse" | "trpc" | "site" | "embed";

export interface Route {
  surface: Surface;
  admin?: boolean;
  method: "GET" | "POST" | "PUT" | "PATCH";
  path: string;
  query?: Array<[string, string]>;
  body?: { type: "json" | "form"; value: Record<string, Json> };
  /** Credentials any request to it may carry. */
  credentials: Array<Record<string, string>>;
  /** Well-formed requests to it that are still always refused (with their own credentials). */
  semantic?: Array<fc.Arbitrary<Case>>;
}

const encodePairs = (pairs: Array<[string, string]>) =>
  pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
const targetOf = (route: Route, pairs = route.query ?? []) =>
  pairs.length > 0 ? `${route.path}?${encodePairs(pairs)}` : route.path;
const formFields = (value: Record<string, Json>): Array<[string, string]> =>
  Object.entries(value).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
const bodyText = (route: Route) =>
  route.body?.type === "form" ? encodePairs(formFields(route.body.value)) : JSON.stringify(route.body?.value ?? {});
const bodyType = (route: Route) =>
  route.body?.type === "form" ? "application/x-www-form-urlencoded" : "application/json";

/**
 * A case of `route` with the given credentials; the rest (method, target, body and its type)
 * as the route normally has it unless given. `contentType: ""` sends no Content-Type.
 */
export function caseOf(
  route: Route,
  family: string,
  credentials: Record<string, string>,
  parts: {
    method?: string;
    target?: string;
    body?: Buffer | undefined;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Case {
  const method = parts.method ?? route.method;
  const body = "body" in parts ? parts.body : method === "GET" ? undefined : Buffer.from(bodyText(route));
  const contentType = parts.contentType ?? (body === undefined ? "" : bodyType(route));
  return {
    family,
    admin: route.admin === true,
    method,
    target: parts.target ?? targetOf(route),
    headers: { ...credentials, ...(contentType === "" ? {} : { "Content-Type": contentType }), ...parts.headers },
    body,
  };
}

/** The malformations of the request pipeline that apply to `route`. */
function pipelineCases(route: Route): Array<{ weight: number; arbitrary: fc.Arbitrary<Case> }> {
  const credentials = fc.constantFrom(...route.credentials);
  const families: Array<{ weight: number; arbitrary: fc.Arbitrary<Case> }> = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<Case>) => families.push({ weight, arbitrary });

  // The path: a bad escape (or an escaped NUL) inside one of its segments.
  add(
    4,
    fc.tuple(credentials, fc.nat(), fc.nat(), tokenArb).map(([creds, pick, offset, token]) => {
      const segments = route.path.split("/");
      const indexes = segments.flatMap((segment, index) => (segment === "" ? [] : [index]));
      const index = indexes[pick % indexes.length] as number;
      segments[index] = withEscape(segments[index] as string, token, offset);
      const query = route.query && route.query.length > 0 ? `?${encodePairs(route.query)}` : "";
      return caseOf(route, `path ${token}`, creds, { target: `${segments.join("/")}${query}` });
    }),
  );

  // The query: a bad escape in a key or a value, or in a pair of its own; sometimes after a
  // literal "?" inside the query (a legal query character).
  add(
    4,
    fc
      .tuple(credentials, fc.nat(), fc.nat(), fc.boolean(), tokenArb, nameArb, safeTextArb, fc.nat(3), fc.nat())
      .map(([creds, pick, offset, inKey, token, name, value, questionMark, qOffset]) => {
        const pairs = (route.query ?? []).map(
          ([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)] as [string, string],
        );
        if (pairs.length === 0 || pick % 3 === 0) pairs.splice(pick % (pairs.length + 1), 0, [name, value]);
        const pair = pairs[pick % pairs.length] as [string, string];
        if (inKey) pair[0] = withEscape(pair[0], token, offset);
        else pair[1] = withEscape(pair[1], token, offset);
        let query = pairs.map(([k, v]) => `${k}=${v}`).join("&");
        let variant = `query ${token}`;
        if (questionMark === 0) {
          // "?" before the bad escape: the query is everything after the first "?".
          const tokenAt = query.indexOf(token);
          const cut = qOffset % (tokenAt + 1);
          query = `${query.slice(0, cut)}?${query.slice(cut)}`;
          variant = `query ${token} after a "?"`;
        }
        return caseOf(route, variant, creds, { target: `${route.path}?${query}` });
      }),
  );

  if (route.method === "GET") {
    if (route.admin) {
      // A tRPC query's input: JSON in the URL, checked as a body.
      add(
        5,
        fc
          .tuple(credentials, invalidJsonTextArb({ filter: "fuzz", limit: 10, ids: ["a", "b"] }, 1000))
          .map(([creds, { variant, text }]) => {
            // Objects cost 13 characters a level once encoded: keep the URL under Node's 16 KiB of headers.
            const input =
              encodeURIComponent(text).length > 12_000
                ? encodeURIComponent(deepText(900, 0, ""))
                : encodeURIComponent(text);
            return caseOf(route, `input ${variant}`, creds, { target: `${route.path}?input=${input}` });
          }),
      );
    }
    return families;
  }

  const value = (route.body?.value ?? {}) as Json;
  const jsonBody = (
    creds: Record<string, string>,
    family: string,
    text: string | Buffer,
    contentType = "application/json",
  ) => caseOf(route, family, creds, { body: Buffer.isBuffer(text) ? text : Buffer.from(text), contentType });

  // JSON bodies refused by the input checks: too deep, NUL, unpaired surrogates, ±Infinity, not JSON.
  add(
    10,
    fc
      .tuple(
        credentials,
        invalidJsonTextArb(value, DEPTH.max),
        fc.constantFrom("application/json", "application/json; charset=utf-8", "Application/JSON"),
      )
      .map(([creds, { variant, text }, type]) => jsonBody(creds, `body ${variant}`, text, type)),
  );

  // Bytes that are not UTF-8, in the body of either type.
  add(
    3,
    fc
      .tuple(credentials, fc.constantFrom(...BAD_UTF8), fc.nat(), fc.boolean())
      .map(([creds, bytes, offset, asForm]) => {
        const text = Buffer.from(
          asForm ? encodePairs(formFields(route.body?.value ?? { a: "b" })) : JSON.stringify(value),
        );
        const cut = offset % (text.length + 1);
        const body = Buffer.concat([text.subarray(0, cut), Buffer.from(bytes), text.subarray(cut)]);
        return jsonBody(
          creds,
          `utf8 ${Buffer.from(bytes).toString("hex")}`,
          body,
          asForm ? "application/x-www-form-urlencoded" : "application/json",
        );
      }),
  );

  // Form bodies with bad escapes (or an escaped NUL) in a key or a value, on every route.
  add(
    3,
    fc.tuple(credentials, fc.nat(), fc.nat(), fc.boolean(), tokenArb).map(([creds, pick, offset, inKey, token]) => {
      const pairs = formFields(route.body?.value ?? { a: "b" }).map(
        ([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)] as [string, string],
      );
      const pair = pairs[pick % pairs.length] as [string, string];
      // Now and then a raw NUL rather than an escaped one: refused all the same.
      const bad = token === "%00" && offset % 2 === 0 ? "\u0000" : token;
      if (inKey) pair[0] = withEscape(pair[0], bad, offset);
      else pair[1] = withEscape(pair[1], bad, offset);
      return jsonBody(
        creds,
        `form ${bad === token ? token : "raw NUL"}`,
        pairs.map(([k, v]) => `${k}=${v}`).join("&"),
        "application/x-www-form-urlencoded",
      );
    }),
  );

  // A well-formed body of a type nobody reads.
  add(
    2,
    fc
      .tuple(credentials, fc.constantFrom(...WRONG_CONTENT_TYPES))
      .map(([creds, type]) => jsonBody(creds, `content-type "${type}"`, bodyText(route), type)),
  );

  // Over 1 MiB, announced or chunked (rare: they are slow).
  add(
    1,
    fc
      .tuple(
        credentials,
        fc.integer({ min: 1, max: 4096 }),
        fc.boolean(),
        fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain"),
      )
      .map(([creds, over, chunked, type]) => {
        const head =
          type === "application/json"
            ? `${JSON.stringify(value).slice(0, -1)}${Object.keys(value as object).length > 0 ? "," : ""}"zz_pad":"`
            : "zz_pad=";
        const tail = type === "application/json" ? '"}' : "";
        const pad = MAX_BODY_BYTES + over - head.length - tail.length;
        const body = Buffer.concat([Buffer.from(head), Buffer.alloc(pad, "x"), Buffer.from(tail)]);
        return { ...jsonBody(creds, `oversized ${body.length}${chunked ? " chunked" : ""}`, body, type), chunked };
      }),
  );

  return families;
}

/** A Cookie header now and then: harmless, or a staff cookie that is not percent-encoded properly. */
const cookieArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom("theme=dark", "a=b; c=d") },
  {
    weight: 2,
    arbitrary: fc.constantFrom("mga_staff=%zz", "mga_staff=%E0%A4%A", "mga_staff=%", "theme=dark; mga_staff=%ED%A0%80"),
  },
);

function withCookie(c: Case, cookie: string | undefined): Case {
  if (cookie === undefined) return c;
  const existing = c.headers.Cookie;
  return {
    ...c,
    family: `${c.family} +cookie "${cookie}"`,
    headers: { ...c.headers, Cookie: existing ? `${cookie}; ${existing}` : cookie },
  };
}

export function surfaceArb(routes: Route[]): fc.Arbitrary<Case> {
  const perRoute = routes.map((route) =>
    fc.oneof(...pipelineCases(route), ...(route.semantic ?? []).map((arbitrary) => ({ weight: 3, arbitrary }))),
  );
  return fc.tuple(fc.oneof(...perRoute), cookieArb).map(([c, cookie]) => withCookie(c, cookie));
}

// --- semantic families: well-formed requests that are refused all the same ---------------------

const keyed = () =>
  fc.constantFrom<Record<string, string>>({ Authorization: `Bearer ${f.fuzzKey}` }, { "X-API-Key": f.fuzzKey });
const noKey = () =>
  fc.constantFrom<Record<string, string>>(
    {},
    { Authorization: "Bearer mga_fuzz_not_a_key" },
    { "X-API-Key": "nope" },
    { Authorization: "Basic Zm9vOmJhcg==" },
    { Authorization: `Bearer ${f.fuzzKey}x` },
    { Authorization: `Bearer ${f.fuzzKey.slice(0, -1)}` },
    { "X-API-Key": f.fuzzKey.toUpperCase() },
    { Authorization: `Bearer ${f.fuzzKey} ${f.fuzzKey}` },
  );

/** The body with one key more, unknown to a strict schema. */
const unknownField = (route: Route, credentials: fc.Arbitrary<Record<string, string>>, family = "unknown field") =>
  fc.tuple(credentials, nameArb, fc.jsonValue({ maxDepth: 2 })).map(([creds, name, extra]) =>
    caseOf(route, family, creds, {
      body: Buffer.from(JSON.stringify({ ...route.body?.value, [`zz_${name}`]: extra as Json })),
    }),
  );

/** The body with fields replaced by values their schema refuses. */
const badFields = (
  route: Route,
  credentials: fc.Arbitrary<Record<string, string>>,
  bad: Record<string, Json[]>,
  headers: Record<string, string> = {},
) =>
  fc.tuple(credentials, fc.constantFrom(...Object.keys(bad)), fc.nat()).map(([creds, field, pick]) => {
    const choices = bad[field] as Json[];
    const replacement = choices[pick % choices.length] as Json;
    const body: Record<string, Json> = { ...route.body?.value };
    if (replacement === "<absent>") delete body[field];
    else body[field] = replacement;
    return caseOf(route, `bad ${field}`, creds, { body: Buffer.from(JSON.stringify(body)), headers });
  });

/** Path parameter values outside their formats (spec 2.1, 8), or naming nothing that exists. */
const BAD_PATH_VALUES: Record<string, string[]> = {
  integration: ["Fuzz-LOS", "ab", "x".repeat(65), "fuzz--los", "fuzz_los!", "9fuzz", "other-los", "fuzz los"],
  external_team_id: ["x".repeat(129), "a b", "a@b.test", "a/b", "\u00fc", "a*b", "a#b"],
  external_user_id: ["x".repeat(129), "a b", "fuzz-user@acme.test", "a/b", "\u00fc", "a*b", "a?b"],
  conversationId: ["x".repeat(65), "conv_doesnotexist", "conv doesnotexist"],
  operation_id: ["x".repeat(129), "a b", "uop_doesnotexist"],
  job_id: ["x".repeat(129), "a b", "imp_doesnotexist"],
};

/** A path with one of its parameters replaced by an invalid value (correctly percent-encoded). */
function badPathParameter(
  route: Route,
  template: string,
  credentials: fc.Arbitrary<Record<string, string>>,
  family = "bad path parameter",
): fc.Arbitrary<Case> | undefined {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  if (names.length === 0) return undefined;
  return fc.tuple(credentials, fc.constantFrom(...names), fc.nat()).map(([creds, name, pick]) => {
    const values = BAD_PATH_VALUES[name] ?? ["x".repeat(200)];
    const value = values[pick % values.length] as string;
    const templatePath = template.replace(/\{(\w+)\}/g, (_, other: string) =>
      other === name ? encodeURIComponent(value) : `{${other}}`,
    );
    const segments = templatePath.split("/");
    const concrete = route.path
      .split("/")
      .map((segment, index) => (segments[index]?.startsWith("{") ? segment : (segments[index] as string)));
    return caseOf(route, `${family} ${name}=${value.slice(0, 20)}`, creds, {
      target: targetOf({ ...route, path: concrete.join("/") }),
    });
  });
}

/** Query parameter values outside their formats (spec 2.1) or closed lists. */
const BAD_QUERY_VALUES: Record<string, string[]> = {
  external_user_id: [
    "",
    "x".repeat(129),
    "a b",
    "fuzz-end-user@acme.test",
    "a/b",
    "\u00fc",
    "a*b",
    "a?b",
    "fuzz-end-user\u0000",
  ],
  order: ["", "ASC", "Desc", "up", "ascending", "desc ", "1", "asc,desc"],
  // GET /v1/usage: not a calendar day, from after to, a range past 400 days, days out of bounds.
  from: [
    "",
    "2026-02-30",
    "2026-1-1",
    "yesterday",
    "9999-12-31",
    "2026-11-26T00:00:00Z",
    "0000-00-00",
    "2020-01-01",
    "-2026-01-01",
  ],
  to: ["", "2026-13-01", "x", "2026-02-29", "+2026-01-01", "2026-11-26 "],
  days: ["", "0", "401", "-1", "1.5", "abc", "1e3", "NaN"],
  key_id: ["", "x".repeat(65)],
};

function v1Semantic(
  route: Route,
  template: string,
  methods: string[],
  operation: { parameters?: Array<{ in: string; name: string; required?: boolean }> },
): Array<fc.Arbitrary<Case>> {
  const families: Array<fc.Arbitrary<Case>> = [fc.tuple(noKey()).map(([creds]) => caseOf(route, "no key", creds))];
  const badParameter = badPathParameter(route, template, keyed());
  if (badParameter) families.push(badParameter);
  // A method the path does not have (HEAD left out: a 405 to it has no body to judge; the method sweep below covers it).
  const others = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"].filter(
    (method) => !methods.includes(method),
  );
  if (others.length > 0) {
    families.push(
      fc
        .tuple(keyed(), fc.constantFrom(...others))
        .map(([creds, method]) =>
          caseOf(
            route,
            `method ${method}`,
            creds,
            method === "GET"
              ? { method, body: undefined }
              : { method, body: Buffer.from(JSON.stringify(route.body?.value ?? {})), contentType: "application/json" },
          ),
        ),
    );
  }
  const query = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
  if (route.body) families.push(unknownField(route, keyed()));
  if (route.method === "GET") {
    families.push(
      fc.tuple(keyed(), nameArb, safeTextArb).map(([creds, name, value]) =>
        caseOf(route, "unknown query parameter", creds, {
          target: targetOf(route, [...(route.query ?? []), [`zz_${name}`, value]]),
        }),
      ),
    );
  }
  if (template.includes("{conversationId}")) {
    // Another key's conversation (the control key's): every conversation route answers it as unknown.
    families.push(
      fc.tuple(keyed()).map(([creds]) =>
        caseOf(route, "another key's conversation", creds, {
          target: targetOf({ ...route, path: route.path.replace(f.conversationId, f.controlConversationId) }),
        }),
      ),
    );
  }
  if (query.includes("last_event_id")) {
    families.push(
      fc
        .tuple(
          keyed(),
          fc.oneof(
            fc.stringMatching(/^[A-Za-z0-9_.:-]{1,80}$/),
            fc.constantFrom(
              "ans_x.1",
              "ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8.-1",
              "ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8",
              "ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8.12",
            ),
          ),
        )
        .map(([creds, id]) =>
          caseOf(route, "forged event id", creds, {
            target: targetOf(route, [...(route.query ?? []), ["last_event_id", id]]),
          }),
        ),
    );
  }
  if (query.includes("cursor")) {
    families.push(
      fc.tuple(keyed(), fc.stringMatching(/^[A-Za-z0-9_.-]{1,300}$/)).map(([creds, cursor]) =>
        caseOf(route, "forged cursor", creds, {
          target: targetOf(route, [...(route.query ?? []), ["cursor", cursor]]),
        }),
      ),
    );
    // Cursors this service issued, for another key, user, conversation, order or list.
    families.push(
      fc
        .tuple(keyed(), fc.constantFrom(...(f.foreignCursors[template] ?? f.foreignCursors["*"] ?? [])))
        .map(([creds, cursor]) =>
          caseOf(route, "foreign cursor", creds, {
            target: targetOf(route, [...(route.query ?? []), ["cursor", cursor]]),
          }),
        ),
    );
  }
  const malformable = (operation.parameters ?? [])
    .filter((p) => p.in === "query" && BAD_QUERY_VALUES[p.name])
    .map((p) => p.name);
  if (malformable.length > 0) {
    families.push(
      fc.tuple(keyed(), fc.constantFrom(...malformable), fc.nat()).map(([creds, name, pick]) => {
        const values = BAD_QUERY_VALUES[name] as string[];
        const value = values[pick % values.length] as string;
        return caseOf(route, `bad query ${name}=${JSON.stringify(value.slice(0, 20))}`, creds, {
          target: targetOf(route, [...(route.query ?? []).filter(([k]) => k !== name), [name, value]]),
        });
      }),
    );
  }
  const required = (operation.parameters ?? []).filter((p) => p.in === "query" && p.required).map((p) => p.name);
  if (required.length > 0) {
    families.push(
      fc.tuple(keyed(), fc.constantFrom(...required)).map(([creds, name]) =>
        caseOf(route, `no ${name}`, creds, {
          target: targetOf(
            route,
            (route.query ?? []).filter(([k]) => k !== name),
          ),
        }),
      ),
    );
  }
  if (query.includes("limit")) {
    families.push(
      fc
        .tuple(keyed(), fc.constantFrom("0", "101", "-1", "1.5", "1e400", "abc", "NaN", "1000000", "Infinity", ""))
        .map(([creds, limit]) =>
          caseOf(route, `limit ${limit}`, creds, {
            target: targetOf(route, [
              ...(route.query ?? []).filter(([k]) => k !== "limit"),
              ["limit", limit === "" ? "x" : limit],
            ]),
          }),
        ),
    );
  }
  if ((operation.parameters ?? []).some((p) => p.in === "header" && p.name === "Idempotency-Key" && p.required)) {
    families.push(fc.tuple(keyed()).map(([creds]) => caseOf(route, "no Idempotency-Key", creds)));
  }
  return families;
}

function sseSemantic(route: Route): Array<fc.Arbitrary<Case>> {
  return [
    fc.tuple(noKey()).map(([creds]) => caseOf(route, "stream: no key", creds)),
    unknownField(route, keyed(), "stream: unknown field"),
    fc
      .tuple(keyed(), safeTextArb)
      .map(([creds, idempotencyKey]) =>
        caseOf(route, "stream: with Idempotency-Key", creds, { headers: { "Idempotency-Key": idempotencyKey } }),
      ),
    badFields(route, keyed(), {
      message: ["", "x".repeat(4001), 42, null, ["a"], "<absent>"],
      user: [
        "<absent>",
        null,
        "lo-1",
        { external_user_id: "" },
        { external_user_id: "x".repeat(129) },
        { external_user_id: "u", zz: 1 },
      ],
      search_options: [{ zz: ["a"] }, { agency_source_types: "fha" }, [], "fha"],
      metadata: ["loan", [1], 42],
    }),
    badFields(route, keyed(), { stream: ["true", 1, "yes"] }),
  ];
}

export function buildRoutes(): Record<Surface, Route[]> {
  const v1Credentials: Array<Record<string, string>> = [
    {},
    { Authorization: `Bearer ${f.fuzzKey}` },
    { "X-API-Key": f.fuzzKey },
    { Authorization: "Bearer mga_fuzz_not_a_key" },
  ];
  const pathValues: Record<string, string> = {
    conversationId: f.conversationId,
    integration: INTEGRATION,
    external_team_id: TEAM,
    external_user_id: USER,
    operation_id: "uop_fuzz_missing",
    job_id: "imp_fuzz_missing",
  };
  /** Query parameters the requests carry where the operation has them (the others: see the semantic families). */
  const queryValues: Record<string, string> = { limit: "10", status: "active", external_user_id: "fuzz-end-user" };
  const endUser = { external_user_id: "fuzz-end-user", email: "end-user@acme.test", name: "End User" };
  const sampleBodies: Record<string, Record<string, Json>> = {
    "POST /v1/conversations": { user: endUser, title: "Fuzz conversation", metadata: { loan: "LN-1", amount: 250000 } },
    "POST /v1/messages": {
      message: "What is the FHA minimum down payment?",
      user: endUser,
      metadata: { loan: "LN-1" },
      search_options: { agency_source_types: ["fha"] },
      conversation: { title: "FHA" },
    },
    "POST /v1/conversations/{conversationId}/messages": {
      message: "And for VA loans?",
      user: endUser,
      metadata: { loan: "LN-1" },
    },
    "PUT /v1/integrations/{integration}/teams/{external_team_id}": { name: "Fuzz team renamed" },
    "PATCH /v1/integrations/{integration}/teams/{external_team_id}": { name: "Fuzz team renamed", status: "archived" },
    "PUT /v1/integrations/{integration}/users/{external_user_id}": {
      email: USER_EMAIL,
      name: "Fuzz User Renamed",
      team_external_id: null,
    },
    "PATCH /v1/integrations/{integration}/users/{external_user_id}": { status: "disabled" },
    "POST /v1/integrations/{integration}/users/{external_user_id}/profile-changes": {
      email: "fuzz-new@acme.test",
      name: "New Name",
    },
    "POST /v1/integrations/{integration}/users/{external_user_id}/deletions": { note: "fuzz" },
    "POST /v1/integrations/{integration}/users/{external_user_id}/reprovision": {
      email: USER_EMAIL,
      name: "Fuzz User",
    },
    "POST /v1/integrations/{integration}/user-imports": {
      users: [{ external_user_id: "imp-1", email: "imp-1@acme.test", name: "Imp One", team_external_id: TEAM }],
    },
    "POST /v1/embed-sessions": {
      integration: INTEGRATION,
      user: { external_user_id: USER },
      loan_context: { external_loan_id: "LN-FUZZ-2", program: "fha", units: 1 },
    },
  };

  const v1: Route[] = [];
  const document = buildOpenApiDocument(setup.app.baseUrl) as unknown as {
    paths: Record<
      string,
      Record<string, { parameters?: Array<{ in: string; name: string; required?: boolean }>; requestBody?: unknown }>
    >;
  };
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase() as Route["method"];
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = pathValues[name];
        if (value === undefined) throw new Error(`no value for the path parameter ${name} of ${template}: add one`);
        return value;
      });
      const query = (operation.parameters ?? [])
        .filter((p) => p.in === "query" && queryValues[p.name] !== undefined)
        .map((p) => [p.name, queryValues[p.name] as string] as [string, string]);
      const sample = sampleBodies[`${upper} ${template}`];
      if (operation.requestBody && !sample) throw new Error(`no sample body for ${upper} ${template}: add one`);
      const route: Route = {
        surface: "v1",
        method: upper,
        path,
        query,
        credentials: v1Credentials,
        ...(operation.requestBody && sample ? { body: { type: "json", value: sample } } : {}),
      };
      route.semantic = v1Semantic(
        route,
        template,
        Object.keys(operations).map((m) => m.toUpperCase()),
        operation,
      );
      v1.push(route);
    }
  }

  const sse: Route[] = [
    {
      surface: "sse",
      method: "POST",
      path: "/v1/messages",
      credentials: v1Credentials,
      body: { type: "json", value: { ...(sampleBodies["POST /v1/messages"] as Record<string, Json>), stream: true } },
    },
    {
      surface: "sse",
      method: "POST",
      path: `/v1/conversations/${f.conversationId}/messages`,
      credentials: v1Credentials,
      body: {
        type: "json",
        value: {
          ...(sampleBodies["POST /v1/conversations/{conversationId}/messages"] as Record<string, Json>),
          stream: true,
        },
      },
    },
  ];
  for (const route of sse) route.semantic = sseSemantic(route);
  const streamToConversation = sse[1] as Route;
  streamToConversation.semantic?.push(
    badPathParameter(
      streamToConversation,
      "/v1/conversations/{conversationId}/messages",
      keyed(),
      "stream: bad path parameter",
    ) as fc.Arbitrary<Case>,
  );

  const staff = { Cookie: f.staffCookie, "X-CSRF-Token": f.staffCsrf };
  const trpcCredentials: Array<Record<string, string>> = [{}, staff];
  const signIn: Route = {
    surface: "trpc",
    admin: true,
    method: "POST",
    path: "/trpc/staff.signIn",
    credentials: trpcCredentials,
    body: { type: "json", value: { ...STAFF } },
  };
  const create: Route = {
    surface: "trpc",
    admin: true,
    method: "POST",
    path: "/trpc/staff.organizations.create",
    credentials: trpcCredentials,
    body: { type: "json", value: { name: "Fuzz organization" } },
  };
  const list: Route = {
    surface: "trpc",
    admin: true,
    method: "GET",
    path: "/trpc/staff.organizations.list",
    credentials: trpcCredentials,
  };
  // An organization that does not exist: even a well-formed rename changes nothing.
  const rename: Route = {
    surface: "trpc",
    admin: true,
    method: "POST",
    path: "/trpc/staff.organizations.rename",
    credentials: trpcCredentials,
    body: { type: "json", value: { id: "org_fuzz_missing", name: "Renamed" } },
  };
  const status: Route = {
    surface: "trpc",
    admin: true,
    method: "GET",
    path: "/trpc/system.status",
    credentials: trpcCredentials,
  };
  const wrongMethod = (route: Route, method: string) =>
    fc
      .tuple(fc.constantFrom(...trpcCredentials))
      .map(([creds]) =>
        caseOf(
          route,
          `method ${method}`,
          creds,
          method === "GET"
            ? { method, body: undefined }
            : { method, body: Buffer.from("{}"), contentType: "application/json" },
        ),
      );
  signIn.semantic = [
    unknownField(signIn, fc.constantFrom(...trpcCredentials)),
    badFields(signIn, fc.constantFrom(...trpcCredentials), {
      email: ["", 42, null, ["a@b.test"], "x".repeat(255), "<absent>"],
      password: ["", 42, null, "x".repeat(1001), "<absent>"],
    }),
    wrongMethod(signIn, "GET"),
  ];
  create.semantic = [
    fc.constant(caseOf(create, "no staff session", {})),
    fc.constant(caseOf(create, "no CSRF token", { Cookie: f.staffCookie })),
    fc.constant(caseOf(create, "wrong CSRF token", { Cookie: f.staffCookie, "X-CSRF-Token": "fuzz" })),
    unknownField(create, fc.constant(staff)),
    badFields(create, fc.constant(staff), { name: ["", "   ", "x".repeat(201), 42, null, { a: 1 }, "<absent>"] }),
    wrongMethod(create, "GET"),
  ];
  rename.semantic = [
    fc.constant(caseOf(rename, "no CSRF token", { Cookie: f.staffCookie })),
    unknownField(rename, fc.constant(staff)),
    badFields(rename, fc.constant(staff), {
      id: ["", 42, null, "<absent>"],
      name: ["", "   ", "x".repeat(201), 42, null, "<absent>"],
    }),
    wrongMethod(rename, "GET"),
  ];
  list.semantic = [fc.constant(caseOf(list, "no staff session", {})), wrongMethod(list, "POST")];

  // Key lifecycle (issue 25). Each base request names a key or organization that does not exist,
  // so even a well-formed one changes nothing; the bad fields are also tried on the fuzz key itself.
  const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const badExpiry: Json[] = [
    "tomorrow",
    "2027-01-01",
    42,
    { a: 1 },
    new Date(Date.now() - 60_000).toISOString(),
    new Date(Date.now() + 400 * 86_400_000).toISOString(),
    "2027-02-30T00:00:00Z",
  ];
  const badScopes: Json[] = [[], ["embed:*"], ["chat:read", "admin"], "chat:read", null, [42]];
  const createKey: Route = {
    surface: "trpc",
    admin: true,
    method: "POST",
    path: "/trpc/staff.keys.create",
    credentials: trpcCredentials,
    body: {
      type: "json",
      value: { organization_id: "org_fuzz_missing", name: "Fuzz key", scopes: ["chat:read"], expires_at: future },
    },
  };
  const updateKey: Route = {
    surface: "trpc",
    admin: true,
    method: "POST",
    path: "/trpc/staff.keys.update",
    credentials: trpcCredentials,
    body: { type: "json", value: { id: "key_fuzz_missing", name: "Fuzz renamed", scopes: ["chat:read"] } },
  };
  const rollKey: Route = {
    surface: "trpc",
    admin: true,
    method: "POST",
    path: "/trpc/staff.keys.roll",
    credentials: trpcCredentials,
    body: { type: "json", value: { id: "key_fuzz_missing", old_key_expires_in_seconds: 3600, expires_at: future } },
  };
  const expiring: Route = {
    surface: "trpc",
    admin: true,
    method: "GET",
    path: "/trpc/staff.keys.expiring",
    query: [["input", JSON.stringify({ organization_id: "org_fuzz_missing", within_days: 7 })]],
    credentials: trpcCredentials,
  };
  const onFuzzKey = (route: Route): Route => ({
    ...route,
    body: { type: "json", value: { ...route.body?.value, id: f.fuzzKeyId } },
  });
  createKey.semantic = [
    fc.constant(caseOf(createKey, "no CSRF token", { Cookie: f.staffCookie })),
    unknownField(createKey, fc.constant(staff)),
    badFields(createKey, fc.constant(staff), {
      expires_at: badExpiry,
      scopes: badScopes,
      name: ["", "   ", "x".repeat(201), 42],
    }),
    wrongMethod(createKey, "GET"),
  ];
  updateKey.semantic = [
    fc.constant(caseOf(updateKey, "no CSRF token", { Cookie: f.staffCookie })),
    unknownField(onFuzzKey(updateKey), fc.constant(staff)),
    badFields(onFuzzKey(updateKey), fc.constant(staff), {
      name: ["", "   ", "x".repeat(201), 42, null],
      scopes: badScopes,
    }),
    fc.constant(
      caseOf(updateKey, "neither name nor scopes", staff, { body: Buffer.from(JSON.stringify({ id: f.fuzzKeyId })) }),
    ),
    wrongMethod(updateKey, "GET"),
  ];
  rollKey.semantic = [
    fc.constant(caseOf(rollKey, "no CSRF token", { Cookie: f.staffCookie })),
    unknownField(onFuzzKey(rollKey), fc.constant(staff)),
    badFields(onFuzzKey(rollKey), fc.constant(staff), {
      old_key_expires_in_seconds: [-1, 604_801, 1.5, "3600", null, "<absent>", 1e21],
      expires_at: badExpiry,
      id: ["", 42, null, "<absent>"],
    }),
    wrongMethod(rollKey, "GET"),
  ];
  expiring.semantic = [
    fc.constant(caseOf(expiring, "no staff session", {})),
    fc
      .constantFrom<Json>(
        { within_days: 0 },
        { within_days: 366 },
        { within_days: 1.5 },
        { within_days: "7" },
        { organization_id: "" },
        { organization_id: 42 },
        { zz: 1 },
      )
      .map((input) =>
        caseOf(expiring, "bad expiring input", staff, {
          target: targetOf(expiring, [["input", JSON.stringify(input)]]),
        }),
      ),
    wrongMethod(expiring, "POST"),
  ];
  status.semantic = [wrongMethod(status, "POST")];
  const usageInputs = consoleQueryRoutes(staff, trpcCredentials, wrongMethod);

  // The console's webhook forms: a well-formed body would create an endpoint or send to one, so
  // every case here is broken somewhere (a missing endpoint and delivery make even those 404).
  const webhookMutation = (name: string, value: Record<string, Json>): Route => ({
    surface: "trpc",
    admin: true,
    method: "POST",
    path: `/trpc/staff.webhooks.${name}`,
    credentials: [{}, { Cookie: f.staffCookie }],
    body: { type: "json", value },
  });
  const createEndpoint = webhookMutation("create", {
    organization_id: f.organizationId,
    url: "https://hooks.example.com/fuzz-2",
    event_types: ["user.disabled"],
  });
  createEndpoint.semantic = [
    fc.constant(caseOf(createEndpoint, "no CSRF token", { Cookie: f.staffCookie })),
    unknownField(createEndpoint, fc.constant(staff)),
    badFields(createEndpoint, fc.constant(staff), {
      url: [
        "",
        "not a url",
        "ftp://hooks.example.com/x",
        "https://user:pw@hooks.example.com/x",
        `https://hooks.example.com/${"x".repeat(3000)}`,
        42,
        null,
        "<absent>",
      ],
      event_types: [[], ["user.unknown"], "user.disabled", [42], null, "<absent>"],
      organization_id: ["", 42, null, "<absent>"],
    }),
    wrongMethod(createEndpoint, "GET"),
  ];
  const updateEndpoint = webhookMutation("update", {
    organization_id: f.organizationId,
    endpoint_id: "we_fuzz_missing",
    status: "disabled",
  });
  updateEndpoint.semantic = [
    unknownField(updateEndpoint, fc.constant(staff)),
    badFields(updateEndpoint, fc.constant(staff), {
      status: ["paused", 1, null],
      url: ["ftp://x", 42],
      event_types: [[], ["nope"]],
    }),
  ];
  const sendTest = webhookMutation("sendTestEvent", {
    organization_id: f.organizationId,
    endpoint_id: "we_fuzz_missing",
  });
  sendTest.semantic = [
    unknownField(sendTest, fc.constant(staff)),
    badFields(sendTest, fc.constant(staff), {
      endpoint_id: ["", 42, null, "<absent>"],
      organization_id: ["org_fuzz_missing"],
    }),
  ];
  const redeliver = webhookMutation("redeliver", {
    organization_id: f.organizationId,
    delivery_id: "whd_fuzz_missing",
  });
  redeliver.semantic = [
    unknownField(redeliver, fc.constant(staff)),
    badFields(redeliver, fc.constant(staff), { delivery_id: ["", 42, null, "<absent>"] }),
  ];
  const rollSecret = webhookMutation("rollSecret", { organization_id: "org_fuzz_missing", endpoint_id: f.endpointId });
  rollSecret.semantic = [
    fc.constant(caseOf(rollSecret, "no CSRF token", { Cookie: f.staffCookie })),
    unknownField(rollSecret, fc.constant(staff)),
  ];
  const webhookRoutes = [createEndpoint, updateEndpoint, sendTest, redeliver, rollSecret];

  const siteCredentials: Array<Record<string, string>> = [{}, { Authorization: `Bearer ${f.fuzzKey}` }];
  const site: Route[] = [
    {
      surface: "site",
      method: "POST",
      path: "/site/login",
      credentials: siteCredentials,
      body: { type: "form", value: { session: "fuzz-session", email: USER_EMAIL, password: "fuzz password 1" } },
    },
    {
      surface: "site",
      method: "POST",
      path: "/site/password-setup",
      credentials: siteCredentials,
      body: { type: "form", value: { token: "fuzz-token", password: "a brand new password 1" } },
    },
    {
      surface: "site",
      method: "POST",
      path: "/site/verify-email",
      credentials: siteCredentials,
      body: { type: "form", value: { token: "fuzz-token" } },
    },
    {
      surface: "site",
      method: "POST",
      path: "/site/password-reset",
      credentials: siteCredentials,
      body: { type: "form", value: { email: USER_EMAIL } },
    },
  ];
  const setupCheck: Route = {
    surface: "site",
    method: "POST",
    path: "/site/api/password-setup/check",
    credentials: siteCredentials,
    body: { type: "json", value: { token: "fuzz-token" } },
  };
  // Refused before the throttle counts anything: a malformed token is not a check.
  setupCheck.semantic = [
    badFields(setupCheck, fc.constantFrom(...siteCredentials), {
      token: ["", "x".repeat(257), 42, null, ["a"], { a: 1 }, "<absent>"],
    }),
  ];
  site.push(setupCheck);
  const loginComplete: Route = {
    surface: "site",
    method: "POST",
    path: "/site/api/login-complete",
    credentials: siteCredentials,
    body: { type: "json", value: { session_token: "fuzz-session", site_account_id: "sa_fuzz" } },
  };
  // No SITE_CALLBACK_SECRET here: whatever it is sent, a report of a login is refused.
  loginComplete.semantic = [
    fc
      .tuple(
        fc.constantFrom<Record<string, string>>(
          {},
          { Authorization: "Bearer fuzz-secret" },
          { Authorization: `Bearer ${f.fuzzKey}` },
        ),
        fc.jsonValue({ maxDepth: 3 }),
      )
      .map(([creds, value]) =>
        caseOf(loginComplete, "login report without the site secret", creds, {
          body: Buffer.from(JSON.stringify(value)),
        }),
      ),
  ];
  site.push(loginComplete);

  const chat = { Authorization: `Bearer ${f.chatToken}` };
  const embedCredentials: Array<Record<string, string>> = [{}, { Authorization: `Bearer ${f.fuzzKey}` }, chat];
  const notChat = fc.constantFrom<Record<string, string>>(
    {},
    { Authorization: `Bearer ${f.fuzzKey}` },
    { Authorization: "Bearer fuzz-not-a-token" },
    { Authorization: "Basic Zm9vOmJhcg==" },
  );
  const consume: Route = {
    surface: "embed",
    method: "POST",
    path: "/embed/api/launches/consume",
    credentials: embedCredentials,
    body: { type: "json", value: { code: "fuzzlaunchcode0123456789" } },
  };
  consume.semantic = [
    unknownField(consume, fc.constantFrom(...embedCredentials)),
    badFields(consume, fc.constantFrom(...embedCredentials), {
      code: ["", "x".repeat(257), 42, null, ["a"], "<absent>"],
    }),
    fc
      .tuple(fc.constantFrom(...embedCredentials), fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/))
      .map(([creds, code]) =>
        caseOf(consume, "unknown launch code", creds, { body: Buffer.from(JSON.stringify({ code })) }),
      ),
  ];
  const chatMessages: Route = {
    surface: "embed",
    method: "POST",
    path: "/embed/api/chat/messages",
    credentials: embedCredentials,
    body: { type: "json", value: { message: "FHA down payment?", conversation_id: f.conversationId } },
  };
  chatMessages.semantic = [
    fc.tuple(notChat).map(([creds]) => caseOf(chatMessages, "chat without a chat token", creds)),
    unknownField(chatMessages, fc.constant(chat)),
    badFields(chatMessages, fc.constant(chat), {
      message: ["", "x".repeat(4001), 42, null, "<absent>"],
      conversation_id: ["", "x".repeat(65), 42],
    }),
  ];
  const check: Route = {
    surface: "embed",
    method: "GET",
    path: "/embed/api/chat/check",
    credentials: embedCredentials,
  };
  check.semantic = [fc.tuple(notChat).map(([creds]) => caseOf(check, "check without a chat token", creds))];
  const session: Route = { surface: "embed", method: "GET", path: "/embed/api/session", credentials: embedCredentials };
  session.semantic = [fc.tuple(notChat).map(([creds]) => caseOf(session, "session without a session token", creds))];
  const history: Route = {
    surface: "embed",
    method: "GET",
    path: `/embed/api/chat/conversations/${f.conversationId}/messages`,
    credentials: embedCredentials,
  };
  history.semantic = [
    fc.tuple(notChat).map(([creds]) => caseOf(history, "history without a chat token", creds)),
    // A conversation of the API key, not of the hosted chat's user: not theirs to read.
    fc.constant(caseOf(history, "history of another owner's conversation", chat)),
    badPathParameter(
      history,
      "/embed/api/chat/conversations/{conversationId}/messages",
      fc.constant(chat),
      "history:",
    ) as fc.Arbitrary<Case>,
  ];
  const resume: Route = {
    surface: "embed",
    method: "GET",
    path: `/embed/api/chat/conversations/${f.conversationId}/stream`,
    credentials: embedCredentials,
  };
  resume.semantic = [
    fc.tuple(notChat).map(([creds]) => caseOf(resume, "resume without a chat token", creds)),
    // The API key's conversation, not the hosted chat user's: not theirs to follow, with or without an id.
    fc
      .constantFrom(undefined, "ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8.1")
      .map((id) =>
        caseOf(resume, "resume of another owner's conversation", chat, id ? { headers: { "Last-Event-ID": id } } : {}),
      ),
    badPathParameter(
      resume,
      "/embed/api/chat/conversations/{conversationId}/stream",
      fc.constant(chat),
      "resume:",
    ) as fc.Arbitrary<Case>,
    fc
      .tuple(
        fc.oneof(
          fc.stringMatching(/^[A-Za-z0-9_.:-]{1,80}$/),
          fc.constantFrom("ans_x.1", "ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8.-1", "ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8"),
        ),
        fc.boolean(),
      )
      .map(([id, inQuery]) =>
        caseOf(
          resume,
          `resume: forged event id in the ${inQuery ? "query" : "header"}`,
          chat,
          inQuery ? { target: targetOf(resume, [["last_event_id", id]]) } : { headers: { "Last-Event-ID": id } },
        ),
      ),
  ];
  const cancel: Route = {
    surface: "embed",
    method: "POST",
    path: `/embed/api/chat/conversations/${f.conversationId}/cancel`,
    credentials: embedCredentials,
  };
  cancel.semantic = [
    fc.tuple(notChat).map(([creds]) => caseOf(cancel, "stop without a chat token", creds)),
    // The API key's conversation, not the hosted chat user's: not theirs to stop.
    fc.constant(caseOf(cancel, "stop another owner's answer", chat)),
    badPathParameter(
      cancel,
      "/embed/api/chat/conversations/{conversationId}/cancel",
      fc.constant(chat),
      "stop:",
    ) as fc.Arbitrary<Case>,
  ];
  const demo: Route = {
    surface: "embed",
    method: "GET",
    path: "/embed/demo-partner",
    query: [["launch", `${setup.app.baseUrl}/embed/partner/${INTEGRATION}#code=fuzz`]],
    credentials: embedCredentials,
  };
  const embed = [consume, chatMessages, check, session, history, resume, cancel, demo];

  return {
    v1,
    sse,
    trpc: [
      signIn,
      create,
      rename,
      list,
      status,
      createKey,
      updateKey,
      rollKey,
      expiring,
      ...webhookRoutes,
      ...usageInputs,
    ],
    site,
    embed,
  };
}

/**
 * The console's usage and request-log queries (issue 26): tRPC GETs whose `input` is malformed
 * (a status, time, route, limit, cursor, range or id it cannot be), or sent without a session.
 */
function consoleQueryRoutes(
  staff: Record<string, string>,
  credentials: Array<Record<string, string>>,
  wrongMethod: (route: Route, method: string) => fc.Arbitrary<Case>,
): Route[] {
  const org = f.organizationId;
  const inputs: Record<string, Array<Record<string, Json>>> = {
    "staff.usage.requestLog": [
      { organization_id: org, status: "6xx" },
      { organization_id: org, status: 99 },
      { organization_id: org, status: "404" },
      { organization_id: org, status: 600 },
      { organization_id: org, since: "yesterday" },
      { organization_id: org, until: "2026-13-01T00:00:00Z" },
      { organization_id: org, since: "2026-11-26" },
      { organization_id: org, route: "x".repeat(201) },
      { organization_id: org, route: "" },
      { organization_id: org, limit: 0 },
      { organization_id: org, limit: 201 },
      { organization_id: org, cursor: "forged.cursor" },
      { organization_id: org, cursor: "" },
      { organization_id: org, key_id: 42 },
      { organization_id: org, zz: 1 },
      { organization_id: "" },
      {},
    ],
    "staff.usage.organizationUsage": [
      { organization_id: org, days: 0 },
      { organization_id: org, days: 401 },
      { organization_id: org, days: "30" },
      { organization_id: org, days: 1.5 },
      { organization_id: "" },
      { days: 30 },
    ],
    "staff.usage.keyUsage": [{ key_id: "", days: 30 }, { key_id: "key_fuzz", days: -1 }, { key_id: null }],
    "staff.usage.usageOverview": [{ days: -1 }, { days: 10_000 }, { days: null }, { zz: 1 }],
    "staff.usage.findRequest": [{ request_id: "" }, { request_id: "x".repeat(101) }, { request_id: 7 }, {}],
    // A partner user's conversations on the console's user page.
    "staff.partnerUsers.conversations": [
      { integration_id: "", external_user_id: "fuzz-user" },
      { integration_id: "int_fuzz_missing", external_user_id: "" },
      { integration_id: "int_fuzz_missing", external_user_id: "fuzz-user", limit: 0 },
      { integration_id: "int_fuzz_missing", external_user_id: "fuzz-user", limit: 10_000 },
      { integration_id: "int_fuzz_missing", external_user_id: "fuzz-user", cursor: "forged.cursor" },
      { integration_id: "int_fuzz_missing", external_user_id: "fuzz-user" },
      { integration_id: 7, external_user_id: ["x"] },
      { zz: 1 },
    ],
  };
  return Object.entries(inputs).map(([procedure, bad]) => {
    const route: Route = {
      surface: "trpc",
      admin: true,
      method: "GET",
      path: `/trpc/${procedure}`,
      credentials,
      query: [["input", JSON.stringify(bad[0])]],
    };
    route.semantic = [
      fc.constant(caseOf(route, "no staff session", {})),
      fc.constantFrom(...bad).map((input) =>
        caseOf(route, `bad input ${JSON.stringify(input).slice(0, 40)}`, staff, {
          target: targetOf(route, [["input", JSON.stringify(input)]]),
        }),
      ),
      wrongMethod(route, "POST"),
    ];
    return route;
  });
}

/** The fuzzed test app (listeners, logs) once the fixture is up. */
export const fuzzedApp = () => setup.app;

// ---------------------------------------------------------------------------------------
// The batches: one per surface, each with its own seed (SEED + its index here, as when they
// ran in one file), so a failure found before the split replays the same way.
// ---------------------------------------------------------------------------------------
export const BATCHES: Array<{ surface: Surface; title: string; numRuns: number }> = [
  { surface: "v1", title: "/v1 REST (every operation of the OpenAPI document)", numRuns: 200 },
  { surface: "sse", title: "the SSE message routes (stream: true)", numRuns: 90 },
  { surface: "trpc", title: "/trpc on the admin listener", numRuns: 160 },
  { surface: "site", title: "/site pages and the login report", numRuns: 80 },
  { surface: "embed", title: "/embed hosted-chat routes", numRuns: 100 },
];

/** One surface's batch with its seed. */
export function batchOf(surface: Surface): { title: string; numRuns: number; seed: number } {
  const index = BATCHES.findIndex((batch) => batch.surface === surface);
  const batch = BATCHES[index]!;
  return { title: batch.title, numRuns: batch.numRuns, seed: SEED + index };
}
