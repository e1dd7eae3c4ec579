import type { Database } from "@mga/core/db";
import { AppError } from "@mga/core/errors";
import { verifyChatToken } from "@mga/core/launches";

import type { ApiRequest } from "../../context";
import { bearerToken } from "../../pipeline/bearer-token";

/**
 * The hosted chat page sends its session token, later its chat token, as
 * `Authorization: Bearer` (no cookies: it runs in a partner's third-party iframe).
 */
export function presentedToken(req: ApiRequest): string {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw new AppError("unauthorized", "send the session token as Authorization: Bearer <token>");
  return token;
}

export type ChatAuthority = Awaited<ReturnType<typeof verifyChatToken>>;

/** The chat token's authority (its user, loan and launch), or a 401. */
export const chatAuthority = (db: Database, req: ApiRequest): Promise<ChatAuthority> =>
  verifyChatToken(db, presentedToken(req));
