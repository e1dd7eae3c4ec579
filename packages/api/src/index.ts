export { appRouter, type AppRouter } from "./routers/app.router";
export { adminRouter, type AdminRouter } from "./routers/admin.router";
export { createCallerFactory } from "./trpc";
export {
  type ApiContext,
  type ApiDeps,
  type ApiRequest,
  createContextFactory,
  type DirectoryPorts,
  presentedKeyOf,
} from "./context";
export { createRestHandler } from "./rest/rest-handler";
export { buildOpenApiDocument } from "./openapi/openapi-document";
export { API_VERSION } from "./openapi/api-version";
export { LICENSE_PATH, LICENSE_TEXT } from "./openapi/license";
export { toApiError, type ApiErrorResponse } from "./errors/to-api-error";
export { trpcErrorShape } from "./errors/trpc-error-shape";
export { restMethodsOf, restRouteOf } from "./rest/rest-methods";
export { HTTP_STATUS_OF } from "./errors/http-status";
export { errorEnvelopeSchema, type ErrorEnvelope } from "./schemas/common";
export { textFault } from "./schemas/request-text";
export * from "./routers/keys/keys.types";
export * from "./routers/sources/sources.types";
export { writeErrorResponse } from "./rest/write-error";
export * from "./routers/conversations/conversations.types";
export { withIdempotency, REPLAY_HEADER } from "./idempotency/with-idempotency";
export { answerToWire } from "./routers/conversations/to-wire";
export { answerAsFrames, type FrameSink } from "./streams/answer-frames";
export { matchMessageStream, type MessageStreamRequest, streamMessage } from "./streams/message-stream";
export { createStreamHandler, type HostedChatStreamDeps, writeHostedChatAnswer } from "./streams/stream-handler";
export { resumePoint, type ResumePoint, writeFollowedAnswer } from "./streams/resume-stream";
export { answerStreams } from "./streams/write-answer-stream";
export * from "./routers/partners/teams/teams.types";
export * from "./routers/partners/users/users.types";
export * from "./routers/partners/operations/operations.types";
export * from "./routers/partners/imports/imports.types";
export * from "./routers/launches/launches.types";
export { integrationToOperatorView, keyToOperatorView } from "./operator/operator-views";
export * from "./routers/events/events.types";
export { eventToWire } from "./routers/events/to-wire";
export { type HostedRoute } from "./hosted/hosted-route";
export { embedApiRoutes, type EmbedApiDeps } from "./hosted/embed/embed-api-routes";
export { siteApiRoutes, type SiteApiDeps } from "./hosted/site/site-api-routes";
