/**
 * A route's OpenAPI path (`/v1/conversations/{conversationId}`) as the REST adapter matches it:
 * any case, one optional trailing slash, each `{name}` one path segment (a named group).
 */
export function pathPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}/?$`, "i");
}
