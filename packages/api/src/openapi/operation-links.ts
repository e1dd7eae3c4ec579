/**
 * Where a successful response leads (OpenAPI links), keyed "METHOD /path" like the examples:
 * a created conversation to its reads and its next message, a list of conversations to its first, a user or team write to its read,
 * an accepted lifecycle operation or import to the read that polls it. Each link names its
 * target by route (the document gives it the target's operationId) and fills every path
 * parameter of the target with a runtime expression: from the request's path, or from the
 * response body. A launch leads nowhere in /v1: its URL is for the browser, and no route reads
 * a launch back. packages/api/test/openapi/operation-links.test.ts resolves each link against
 * the operation's examples; apps/server/test/openapi/document-rules.test.ts follows them.
 */
export interface OperationLink {
  /** The target operation, "METHOD /path". */
  to: string;
  description: string;
  /** Every path parameter of the target: `$request.path.<name>` or `$response.body#/<pointer>`. */
  parameters: Record<string, string>;
}

const fromPath = (name: string) => `$request.path.${name}`;
const fromBody = (pointer: string) => `$response.body#${pointer}`;

/** A conversation's reads and its next message, the conversation named by the response. */
function conversationLinks(what: "created" | "answered"): Record<string, OperationLink> {
  const parameters = { conversationId: fromBody("/conversation_id") };
  return {
    GetConversation: {
      to: "GET /v1/conversations/{conversationId}",
      description: what === "created" ? "The conversation just created." : "The conversation this answer belongs to.",
      parameters,
    },
    ListMessages: {
      to: "GET /v1/conversations/{conversationId}/messages",
      description: "Its stored messages, oldest first.",
      parameters,
    },
    SendMessage: {
      to: "POST /v1/conversations/{conversationId}/messages",
      description: "The next message of the conversation.",
      parameters,
    },
  };
}

const userLink = (externalUserId: string): OperationLink => ({
  to: "GET /v1/integrations/{integration}/users/{external_user_id}",
  description: "The user's current state.",
  parameters: { integration: fromPath("integration"), external_user_id: externalUserId },
});

const teamLink: OperationLink = {
  to: "GET /v1/integrations/{integration}/teams/{external_team_id}",
  description: "The team's current state.",
  parameters: { integration: fromPath("integration"), external_team_id: fromBody("/team/external_team_id") },
};

/** A lifecycle operation's 202: poll it until it ends, or read the user it changes. */
const acceptedOperationLinks: Record<string, OperationLink> = {
  GetOperation: {
    to: "GET /v1/integrations/{integration}/user-operations/{operation_id}",
    description: "Polls the operation until its status is completed, failed, expired or cancelled.",
    parameters: { integration: fromPath("integration"), operation_id: fromBody("/operation/operation_id") },
  },
  GetUser: userLink(fromBody("/user/external_user_id")),
};

/** A list's first conversation (the most recently active): what a "recent chats" view opens. */
const firstConversation = { conversationId: fromBody("/conversations/0/conversation_id") };
const conversationListLinks: Record<string, OperationLink> = {
  GetConversation: {
    to: "GET /v1/conversations/{conversationId}",
    description: "The page's first conversation, the most recently active (when the page has one).",
    parameters: firstConversation,
  },
  ListMessages: {
    to: "GET /v1/conversations/{conversationId}/messages",
    description: "The messages of the page's first conversation.",
    parameters: firstConversation,
  },
};

export const OPERATION_LINKS: Record<string, Record<string, OperationLink>> = {
  "GET /v1/conversations": conversationListLinks,
  "POST /v1/conversations": conversationLinks("created"),
  "POST /v1/messages": conversationLinks("answered"),
  "POST /v1/conversations/{conversationId}/messages": conversationLinks("answered"),
  "PUT /v1/integrations/{integration}/teams/{external_team_id}": { GetTeam: teamLink },
  "PATCH /v1/integrations/{integration}/teams/{external_team_id}": { GetTeam: teamLink },
  "PUT /v1/integrations/{integration}/users/{external_user_id}": {
    GetUser: {
      ...userLink(fromBody("/user/external_user_id")),
      description:
        "The user's current state; while provisioning_status is pending (202), poll it until it is active or failed.",
    },
  },
  "PATCH /v1/integrations/{integration}/users/{external_user_id}": {
    GetUser: userLink(fromBody("/user/external_user_id")),
  },
  "POST /v1/integrations/{integration}/users/{external_user_id}/profile-changes": acceptedOperationLinks,
  "POST /v1/integrations/{integration}/users/{external_user_id}/deletions": acceptedOperationLinks,
  "POST /v1/integrations/{integration}/users/{external_user_id}/reprovision": acceptedOperationLinks,
  "GET /v1/integrations/{integration}/user-operations/{operation_id}": {
    GetUser: {
      ...userLink(fromBody("/operation/user/external_user_id")),
      description: "The user the operation changes.",
    },
  },
  "POST /v1/integrations/{integration}/user-imports": {
    GetImport: {
      to: "GET /v1/integrations/{integration}/user-imports/{job_id}",
      description: "Polls the import until its status is completed or failed; each row's outcome is in results.",
      parameters: { integration: fromPath("integration"), job_id: fromBody("/import/job_id") },
    },
  },
};
