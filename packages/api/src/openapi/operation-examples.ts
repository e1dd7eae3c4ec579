import type { SuccessStatus } from "./response-statuses";

/**
 * One example request and response per /v1 operation, shown in the OpenAPI document beside
 * the schemas (keyed "METHOD /path" as the document names operations). Each is checked
 * against its procedure's own input and output schemas (packages/api/test/openapi), so an
 * example cannot drift from the wire shape it illustrates.
 */
export interface OperationExample {
  /** Path and query parameters, by name. */
  parameters?: Record<string, string | number | boolean>;
  body?: Record<string, unknown>;
  responses: Partial<Record<SuccessStatus, Record<string, unknown>>>;
}

const REQUEST_ID = "req_4Vh8Qk2LmN7pR3sT9wXy1Z";
const CONVERSATION_ID = "conv_8Jd2Kq9LmR4sT6vW1xY3zA";
const MESSAGE_ID = "msg_3Fg7Hj1Kl5Mn9Pq2Rs6TuV";
const INTEGRATION = "acme-los";
const USER_ID = "lo-1042";
const TEAM_ID = "loan-officers";
const OPERATION_ID = "op_6Bn2Cm8Dv4Fx1Gz7Hk3JqW";
const IMPORT_ID = "imp_2Wr5Ty8Ui1Op4As7Df0GhJ";
const CREATED = "2026-11-20T14:03:12.000Z";
const UPDATED = "2026-11-21T09:15:40.000Z";

const RESUME_FROM = "ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8.12";

const conversation = {
  conversation_id: CONVERSATION_ID,
  title: "Reserves for a second home",
  status: "active",
  created_at: CREATED,
  updated_at: UPDATED,
  message_count: 4,
  metadata: { loan_number: "LN-20931" },
};

const endUser = { external_user_id: USER_ID, email: "jordan.lee@acme-lending.example", name: "Jordan Lee" };

const tenant = {
  clientName: "Acme Lending",
  clientOrganization: "Acme Lending LLC",
  enabledSources: ["fannie_mae", "freddie_mac", "fha"],
  baseSources: ["fannie_mae"],
  tenantSourceSidebarMode: "grouped",
  tenantSourceKeys: ["acme-overlays"],
  tenantSources: [{ key: "acme-overlays", label: "Acme overlays", groupLabel: "Acme", defaultOn: true }],
  defaultTenantSourceKeys: ["acme-overlays"],
  assignedSharedSourceTypes: ["state_regulations"],
  defaultSharedSourceTypes: ["state_regulations"],
};

const citation = {
  id: "fnma-b3-4.1-01",
  title: "Selling Guide B3-4.1-01: Minimum Reserve Requirements",
  source_type: "fannie_mae",
  url: "https://selling-guide.fanniemae.com/",
};
const answerSource = {
  source_type: "fannie_mae",
  label: "Fannie Mae Selling Guide",
  title: "B3-4.1-01",
  url: "https://selling-guide.fanniemae.com/",
};
const answer = {
  message_id: MESSAGE_ID,
  response: "For a one-unit primary residence, Fannie Mae requires no minimum reserves unless DU asks for them.",
  citations: [citation],
  sources: [answerSource],
  metadata: { tokens_used: 412 },
};

const team = {
  id: "team_7Qw3Er9Ty5Ui1Op8As2DfG",
  integration: INTEGRATION,
  external_team_id: TEAM_ID,
  name: "Loan officers",
  status: "active",
  user_count: 12,
  created_at: CREATED,
  updated_at: UPDATED,
};

const operationSummary = {
  operation_id: OPERATION_ID,
  type: "deletion",
  status: "queued",
  error_code: null,
  updated_at: UPDATED,
};

const partnerUser = {
  integration: INTEGRATION,
  external_user_id: USER_ID,
  team: { id: team.id, external_team_id: TEAM_ID, name: team.name, status: "active" },
  assignment_version: 1,
  identity_origin: "partner_created",
  experience_type: "white_label",
  mapping_status: "mapped",
  launch_eligibility: { can_launch: true, blocking_reasons: [] },
  status: "active",
  provisioning_status: "active",
  wordpress_linked: true,
  access_version: 1,
  account_generation: 1,
  profile_version: 1,
  profile_sync_status: "applied",
  wordpress_sync_status: "applied",
  lifecycle_operation: null,
  created_at: CREATED,
  updated_at: UPDATED,
};
const pendingUser = {
  ...partnerUser,
  identity_origin: null,
  mapping_status: "pending",
  launch_eligibility: { can_launch: false, blocking_reasons: ["provisioning_pending"] },
  provisioning_status: "pending",
  wordpress_linked: false,
};

const importJob = {
  job_id: IMPORT_ID,
  integration: INTEGRATION,
  status: "queued",
  total: 2,
  summary: { processed: 0, created: 0, existing: 0, pending: 0, failed: 0 },
  results: [],
  created_at: UPDATED,
  updated_at: UPDATED,
  completed_at: null,
};

/** An event as GET /v1/events lists it and a webhook delivers it. */
export const EXAMPLE_EVENT = {
  id: "evt_5Kp9Lm2Qr7St1Uv4Wx8YzB",
  type: "user.disabled",
  created_at: UPDATED,
  integration: INTEGRATION,
  data: {
    user: {
      ...partnerUser,
      status: "disabled",
      launch_eligibility: { can_launch: false, blocking_reasons: ["disabled"] },
    },
  },
};

const userPath = { integration: INTEGRATION, external_user_id: USER_ID };
const accepted = (type: string) => ({
  request_id: REQUEST_ID,
  operation: { ...operationSummary, type },
  user: { ...partnerUser, lifecycle_operation: { ...operationSummary, type } },
});

export const OPERATION_EXAMPLES: Record<string, OperationExample> = {
  "GET /v1/me": {
    responses: {
      200: {
        request_id: REQUEST_ID,
        key: {
          id: "key_5Tg8Yh2Uj6Ik9Ol3Pm1NbV",
          name: "Acme production",
          status: "active",
          scopes: ["chat:read", "chat:write", "sources:read"],
          last_four: "x7Qa",
          tenant,
          client: { name: "Acme Lending", organization: "Acme Lending LLC" },
        },
      },
    },
  },
  "GET /v1/usage": {
    parameters: { from: "2026-11-24", to: "2026-11-25" },
    responses: {
      200: {
        request_id: REQUEST_ID,
        from: "2026-11-24",
        to: "2026-11-25",
        days: [
          { date: "2026-11-24", ...usageCounts(0, 0, 0, 0) },
          { date: "2026-11-25", ...usageCounts(12, 3, 2, 1236) },
        ],
        totals: usageCounts(12, 3, 2, 1236),
        integrations: [
          {
            integration: INTEGRATION,
            launches: 4,
            active_users: 2,
            days: [{ date: "2026-11-25", launches: 4, active_users: 2 }],
          },
        ],
      },
    },
  },
  "GET /v1/sources": {
    responses: {
      200: {
        request_id: REQUEST_ID,
        agency_source_types: ["fannie_mae", "freddie_mac", "fha"],
        enabled_sources: ["fannie_mae", "freddie_mac", "fha"],
        base_sources: ["fannie_mae"],
        tenant_source_keys: ["acme-overlays"],
        tenant_sources: tenant.tenantSources,
        tenant_source_sidebar_mode: "grouped",
        secondary_sources: [],
        default_tenant_source_keys: ["acme-overlays"],
        shared_source_types: ["state_regulations"],
        shared_sources: [{ sourceType: "state_regulations", label: "State regulations", defaultOn: true }],
        default_shared_source_types: ["state_regulations"],
        assigned_shared_source_types: ["state_regulations"],
      },
    },
  },
  "POST /v1/conversations": {
    body: { user: endUser, title: "Reserves for a second home", metadata: { loan_number: "LN-20931" } },
    responses: { 201: { request_id: REQUEST_ID, conversation_id: CONVERSATION_ID } },
  },
  "POST /v1/messages": {
    body: {
      message: "What reserves does Fannie Mae require for a one-unit primary residence?",
      user: endUser,
      search_options: { agency_source_types: ["fannie_mae"] },
    },
    responses: {
      200: { request_id: REQUEST_ID, conversation_id: CONVERSATION_ID, conversation_created: true, ...answer },
    },
  },
  "POST /v1/conversations/{conversationId}/messages": {
    parameters: { conversationId: CONVERSATION_ID },
    body: { message: "And for a second home?", user: endUser },
    responses: { 200: { request_id: REQUEST_ID, conversation_id: CONVERSATION_ID, ...answer } },
  },
  "GET /v1/conversations": {
    parameters: { external_user_id: USER_ID, limit: 20 },
    responses: { 200: { request_id: REQUEST_ID, conversations: [conversation], next_cursor: null } },
  },
  "GET /v1/conversations/{conversationId}": {
    parameters: { conversationId: CONVERSATION_ID },
    responses: { 200: { request_id: REQUEST_ID, conversation } },
  },
  "GET /v1/conversations/{conversationId}/stream": {
    parameters: { conversationId: CONVERSATION_ID, last_event_id: RESUME_FROM },
    // An event stream only: its example is RESUMED_FRAMES (one frame, the whole stream in the description).
    responses: {},
  },
  "POST /v1/conversations/{conversationId}/cancel": {
    parameters: { conversationId: CONVERSATION_ID },
    responses: {
      202: { request_id: REQUEST_ID, conversation_id: CONVERSATION_ID, message_id: MESSAGE_ID, status: "generating" },
      200: { request_id: REQUEST_ID, conversation_id: CONVERSATION_ID, message_id: MESSAGE_ID, status: "complete" },
    },
  },
  "GET /v1/conversations/{conversationId}/messages": {
    // The newest page, with the answer being generated at its head: the history as a chat shows it.
    parameters: { conversationId: CONVERSATION_ID, limit: 2, order: "desc" },
    responses: {
      200: {
        request_id: REQUEST_ID,
        conversation_id: CONVERSATION_ID,
        messages: [
          {
            message_id: "msg_9Hh8Gg7Ff6Ee5Dd4Cc3Bb2",
            role: "assistant",
            content: "For a second home, Fannie Mae requires",
            citations: [],
            sources: [],
            metadata: {
              generating: true,
              tokens_used: 0,
              last_event_id: RESUME_FROM,
              resume_path: `/v1/conversations/${CONVERSATION_ID}/stream?last_event_id=${RESUME_FROM}`,
            },
            created_at: UPDATED,
          },
          {
            message_id: "msg_1Aa2Bb3Cc4Dd5Ee6Ff7Gg8",
            role: "user",
            content: "And for a second home?",
            citations: [],
            sources: [],
            metadata: { external_user_id: USER_ID },
            created_at: UPDATED,
          },
          {
            message_id: MESSAGE_ID,
            role: "assistant",
            content: answer.response,
            citations: [citation],
            sources: [answerSource],
            metadata: { tokens_used: 412 },
            created_at: CREATED,
          },
        ],
        next_cursor: "eyJwIjoyLCJmIjoiUjdrMnhUOXBMcVc0bVp2OCJ9.Qm3tV8xKp2LwR9sYb6NcF1hJd4GzA7uE5oTiWq0XyPk",
      },
    },
  },
  "POST /v1/embed-sessions": {
    body: {
      integration: INTEGRATION,
      user: { external_user_id: USER_ID },
      loan_context: {
        external_loan_id: "LN-20931",
        program: "conventional",
        purpose: "purchase",
        units: 1,
        property_state: "TX",
      },
    },
    responses: {
      201: {
        request_id: REQUEST_ID,
        launch_id: "lch_9Zx8Cv7Bn6Mm5Ll4Kk3Jj2",
        launch_url: "https://chat.example-mortgage-assistant.test/embed/partner/acme-los#code=Xk2Lm9Pq4Rs7Tv1Wy5Za8Bc3",
        expires_at: "2026-11-21T09:17:40.000Z",
      },
    },
  },
  "GET /v1/integrations/{integration}/teams": {
    parameters: { integration: INTEGRATION, status: "active", limit: 2 },
    responses: { 200: { request_id: REQUEST_ID, teams: [team], next_cursor: null } },
  },
  "PUT /v1/integrations/{integration}/teams/{external_team_id}": {
    parameters: { integration: INTEGRATION, external_team_id: TEAM_ID },
    body: { name: "Loan officers" },
    responses: {
      200: { request_id: REQUEST_ID, team },
      201: { request_id: REQUEST_ID, team: { ...team, user_count: 0, updated_at: CREATED } },
    },
  },
  "GET /v1/integrations/{integration}/teams/{external_team_id}": {
    parameters: { integration: INTEGRATION, external_team_id: TEAM_ID },
    responses: { 200: { request_id: REQUEST_ID, team } },
  },
  "PATCH /v1/integrations/{integration}/teams/{external_team_id}": {
    parameters: { integration: INTEGRATION, external_team_id: TEAM_ID },
    body: { name: "Senior loan officers" },
    responses: { 200: { request_id: REQUEST_ID, team: { ...team, name: "Senior loan officers" } } },
  },
  "GET /v1/events": {
    parameters: { type: "user.disabled", limit: 25 },
    responses: { 200: { request_id: REQUEST_ID, events: [EXAMPLE_EVENT], next_cursor: null } },
  },
  "GET /v1/integrations/{integration}/users": {
    parameters: { integration: INTEGRATION, team_external_id: TEAM_ID, limit: 25 },
    responses: {
      200: {
        request_id: REQUEST_ID,
        users: [partnerUser],
        counts: { total: 12, active: 11, disabled: 1, deleted: 0, pending: 0, failed: 0 },
        next_cursor: null,
      },
    },
  },
  "PUT /v1/integrations/{integration}/users/{external_user_id}": {
    parameters: userPath,
    body: { email: "jordan.lee@acme-lending.example", name: "Jordan Lee", team_external_id: TEAM_ID },
    responses: {
      200: { request_id: REQUEST_ID, user: partnerUser },
      201: { request_id: REQUEST_ID, user: partnerUser },
      202: { request_id: REQUEST_ID, user: pendingUser },
    },
  },
  "GET /v1/integrations/{integration}/users/{external_user_id}": {
    parameters: userPath,
    responses: { 200: { request_id: REQUEST_ID, user: partnerUser } },
  },
  "PATCH /v1/integrations/{integration}/users/{external_user_id}": {
    parameters: userPath,
    body: { status: "disabled" },
    responses: {
      200: {
        request_id: REQUEST_ID,
        user: {
          ...partnerUser,
          status: "disabled",
          access_version: 2,
          launch_eligibility: { can_launch: false, blocking_reasons: ["disabled"] },
        },
      },
    },
  },
  "POST /v1/integrations/{integration}/users/{external_user_id}/profile-changes": {
    parameters: userPath,
    body: { name: "Jordan Lee-Park" },
    responses: { 202: accepted("profile_change") },
  },
  "POST /v1/integrations/{integration}/users/{external_user_id}/deletions": {
    parameters: userPath,
    body: { note: "Left the company on 2026-11-20" },
    responses: { 202: accepted("deletion") },
  },
  "POST /v1/integrations/{integration}/users/{external_user_id}/reprovision": {
    parameters: userPath,
    body: { email: "jordan.lee@acme-lending.example", name: "Jordan Lee" },
    responses: { 202: accepted("reprovision") },
  },
  "GET /v1/integrations/{integration}/user-operations/{operation_id}": {
    parameters: { integration: INTEGRATION, operation_id: OPERATION_ID },
    responses: {
      200: {
        request_id: REQUEST_ID,
        operation: {
          operation_id: OPERATION_ID,
          type: "deletion",
          status: "completed",
          error_code: null,
          user: { integration: INTEGRATION, external_user_id: USER_ID },
          created_at: CREATED,
          updated_at: UPDATED,
          completed_at: UPDATED,
        },
      },
    },
  },
  "POST /v1/integrations/{integration}/user-imports": {
    parameters: { integration: INTEGRATION },
    body: {
      users: [
        {
          external_user_id: "lo-2001",
          email: "sam.rivera@acme-lending.example",
          name: "Sam Rivera",
          team_external_id: TEAM_ID,
        },
        { external_user_id: "lo-2002", email: "alex.chen@acme-lending.example" },
      ],
    },
    responses: { 202: { request_id: REQUEST_ID, import: importJob } },
  },
  "GET /v1/integrations/{integration}/user-imports/{job_id}": {
    parameters: { integration: INTEGRATION, job_id: IMPORT_ID },
    responses: {
      200: {
        request_id: REQUEST_ID,
        import: {
          ...importJob,
          status: "completed",
          summary: { processed: 2, created: 1, existing: 0, pending: 0, failed: 1 },
          results: [
            { external_user_id: "lo-2001", outcome: "created", error: null },
            {
              external_user_id: "lo-2002",
              outcome: "failed",
              error: {
                code: "identity_conflict",
                message: "user lo-2002 exists with a different email; change it with POST …/profile-changes",
              },
            },
          ],
          completed_at: UPDATED,
        },
      },
    },
  },
};

/** The error envelope's example for each error status (spec section 7). */
export const ERROR_EXAMPLES: Record<number, { code: string; message: string }> = {
  400: { code: "invalid_request", message: "message: Too small: expected string to have >=1 characters" },
  401: { code: "unauthorized", message: "missing API key: send Authorization: Bearer <key> or X-API-Key: <key>" },
  403: { code: "forbidden", message: "this API key lacks the chat:write scope" },
  404: { code: "not_found", message: "conversation conv_8Jd2Kq9LmR4sT6vW1xY3zA not found" },
  409: {
    code: "idempotency_conflict",
    message: "this Idempotency-Key was already used with a different request (route, target or body)",
  },
  413: { code: "invalid_request", message: "request body exceeds 1048576 bytes" },
  415: { code: "invalid_request", message: "request bodies must be sent as Content-Type: application/json" },
  429: { code: "rate_limited", message: "rate limit of 60 requests per minute exceeded; retry in 12s" },
  500: { code: "internal_error", message: "internal error" },
  502: { code: "upstream_error", message: "the upstream chat service failed; try again" },
};

export const EXAMPLE_REQUEST_ID = REQUEST_ID;

/** A resumed answer's frames after frame 12: the rest of it. */
export const RESUMED_FRAMES = [
  { type: "content", content: "for a second home." },
  { type: "content_postprocessed", content: answer.response },
  { type: "complete", metadata: { tokens_used: 412 }, citations: [citation], sources: [answerSource] },
  { type: "public_api_complete", request_id: REQUEST_ID, conversation_id: CONVERSATION_ID, message_id: MESSAGE_ID },
];

/** The same as the event stream carries them, each frame with its id. */
export const RESUMED_FRAMES_EXAMPLE = RESUMED_FRAMES.map(
  (frame, index) => `id: ans_2Ws9Xk4Lp7Qr1Tv6Yb3Nc8.${13 + index}\ndata: ${JSON.stringify(frame)}\n\n`,
).join("");

/** One day's (or the range's) usage counts for the example: requests split as a partner's day might be. */
function usageCounts(requests: number, streamed: number, json: number, tokens: number) {
  const errors = requests > 0 ? 1 : 0;
  return {
    requests,
    streamed_answers: streamed,
    json_answers: json,
    tokens_used: tokens,
    upstream_errors: errors,
    rate_limited: 0,
    by_route_group: requests > 0 ? { conversations: requests - 2, keys: 2 } : {},
    by_status_class: { "2xx": requests - errors, "3xx": 0, "4xx": 0, "5xx": errors },
  };
}
