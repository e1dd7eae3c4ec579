import type { components, operations } from "./generated/openapi";

/** The API's wire shapes, named after the OpenAPI document's components (generated, never written by hand). */
type Schemas = components["schemas"];

export type StreamEvent = Schemas["StreamEvent"];
export type StreamEventType = StreamEvent["type"];
export type StreamErrorFrame = Schemas["StreamEventError"];
export type Citation = Schemas["Citation"];
export type AnswerSource = Schemas["AnswerSource"];
export type ErrorEnvelope = Schemas["ErrorEnvelope"];
export type ErrorCode = ErrorEnvelope["error"]["code"];
export type Conversation = Schemas["Conversation"];
export type Message = Schemas["Message"];
/** The JSON answer of a message (the same routes answer `stream: true` with frames instead). */
export type SendMessageResponse = Schemas["SendMessageResponse"];
/** What POST /v1/conversations/{id}/cancel answers: `generating` while the answer stops (202), else how it had ended (200). */
export type CancelAnswerResponse = Schemas["CancelAnswerResponse"];
export type PartnerTeam = Schemas["PartnerTeam"];
export type PartnerUser = Schemas["PartnerUser"];
export type LifecycleOperation = Schemas["LifecycleOperation"];
export type OperationStatus = LifecycleOperation["status"];
export type ImportJob = Schemas["ImportJob"];
export type ImportStatus = ImportJob["status"];
export type EmbedSession = Schemas["EmbedSession"];

/** The JSON body an operation takes, by its operationId. */
export type BodyOf<O extends keyof operations> = operations[O] extends {
  requestBody?: { content: { "application/json": infer B } };
}
  ? B
  : never;
/** The query parameters an operation takes, by its operationId. */
export type QueryOf<O extends keyof operations> = NonNullable<operations[O]["parameters"]["query"]>;

export type CreateConversationParams = BodyOf<"conversations-createConversation">;
/** `external_user_id` (required), `limit`: the conversations of one end user, most recently active first. */
export type ListConversationsQuery = Omit<QueryOf<"conversations-listConversations">, "cursor">;
/** `limit`, `order` (`asc` oldest first, the default; `desc` newest first). */
export type ListMessagesQuery = Omit<QueryOf<"conversations-listMessages">, "cursor">;
/** A message to send; `stream` is chosen by calling `create` or `stream`. */
export type SendMessageParams = Omit<BodyOf<"conversations-sendMessage">, "stream">;
export type SendToConversationParams = Omit<BodyOf<"conversations-sendToConversation">, "stream">;
export type PutTeamParams = BodyOf<"partnerTeams-putTeam">;
export type UpdateTeamParams = BodyOf<"partnerTeams-patchTeam">;
export type ListTeamsQuery = Omit<QueryOf<"partnerTeams-listTeams">, "cursor">;
export type PutUserParams = BodyOf<"partnerUsers-putUser">;
export type UpdateUserParams = BodyOf<"partnerUsers-patchUser">;
export type ListUsersQuery = Omit<QueryOf<"partnerUsers-listUsers">, "cursor">;
export type ProfileChangeParams = BodyOf<"partnerOperations-requestProfileChange">;
export type DeletionParams = BodyOf<"partnerOperations-requestDeletion">;
export type ReprovisionParams = BodyOf<"partnerOperations-requestReprovision">;
export type CreateImportParams = BodyOf<"partnerImports-createImport">;
export type CreateEmbedSessionParams = BodyOf<"launches-createEmbedSession">;

/** An event of the catalogue, as GET /v1/events lists it (a union on `type`). */
export type Event = Schemas["Event"];
export type EventType = Event["type"];
/** The body of a webhook delivery: an event of the catalogue, or the console's `webhook.test`. */
export type WebhookEvent = Schemas["WebhookPayload"];
/** GET /v1/events filters: `type`, `integration`, `created_after`, `created_before`, `limit`. */
export type ListEventsQuery = Omit<QueryOf<"events-listEvents">, "cursor">;
/** `from`, `to` (UTC days, YYYY-MM-DD, inclusive), `days` (when `from` is absent; default 30), `key_id`. */
export type UsageQuery = QueryOf<"usage-getUsage">;
export type UsageResponse = Schemas["UsageResponse"];
export type UsageDay = Schemas["UsageDay"];
