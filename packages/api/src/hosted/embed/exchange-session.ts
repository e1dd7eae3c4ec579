import { z } from "zod";

import type { Database } from "@mga/core/db";
import { exchangeSessionForChatToken } from "@mga/core/launches";

import { jsonRoute } from "../hosted-route";
import { presentedToken } from "./chat-authority";
import { exchangeSessionOutput } from "./embed.types";

/** GET /embed/api/session (the session token as Bearer): login_pending, or the chat token (once). */
export const exchangeSession = (db: Database) =>
  jsonRoute({
    method: "GET",
    path: "/embed/api/session",
    // This GET hands out the session's one chat token: a HEAD would spend it unseen.
    head: false,
    caller: presentedToken,
    read: () => ({}),
    input: z.strictObject({}),
    output: exchangeSessionOutput,
    async run({ auth: sessionToken, requestId }) {
      const result = await exchangeSessionForChatToken(db, sessionToken);
      return {
        body:
          result.status === "authorized"
            ? {
                request_id: requestId,
                status: "authorized" as const,
                chat_token: result.chatToken,
                expires_at: result.expiresAt.toISOString(),
              }
            : { request_id: requestId, status: "login_pending" as const },
      };
    },
  });
