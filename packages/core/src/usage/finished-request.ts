/**
 * What the host reports of one finished /v1 request (or stream): what the request log keeps and
 * usage counts. Only identifiers, templates, numbers and codes: never a body, a header, a secret,
 * a raw path or anything a partner's user typed.
 */
export interface FinishedRequest {
  requestId: string;
  /** When the response finished (or the client went). */
  at: Date;
  method: string;
  /** The matched procedure's route template ("GET /v1/conversations/{id}"); undefined when no route matched. */
  route: string | undefined;
  /** The matched procedure's group (its OpenAPI tag); undefined when no route matched. */
  routeGroup: string | undefined;
  status: number;
  latencyMs: number;
  /** The spec's error code the request ended with (the JSON error, or a stream's terminal error frame). */
  errorCode: string | undefined;
  /** The key, once it was authenticated (a 401 has none). */
  keyId: string | undefined;
  organizationId: string | undefined;
  /** An answer was produced: as an event stream or as JSON. */
  answer: "streamed" | "json" | undefined;
  tokensUsed: number | undefined;
  /** The conversation, operation, import or launch the request touched (an id the service issued). */
  resourceId: string | undefined;
  /** A launch was issued: counted per integration, its user as active that day. */
  launch: { integrationId: string; partnerUserId: string } | undefined;
}
