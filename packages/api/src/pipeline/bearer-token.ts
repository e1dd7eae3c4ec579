/**
 * The one reader of `Authorization: Bearer <token>`: the API key of /v1, the hosted chat's
 * session and chat tokens, a real site's callback secret. Undefined when the header is absent
 * or names another scheme; each caller decides what that means (a missing key, a 401).
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}
