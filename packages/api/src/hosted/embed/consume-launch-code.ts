import type { Database } from "@mga/core/db";
import { consumeLaunchCode as consume } from "@mga/core/launches";

import { jsonRoute } from "../hosted-route";
import { consumeLaunchCodeInput, consumeLaunchCodeOutput } from "./embed.types";

/**
 * POST /embed/api/launches/consume {code}: an authentication-only session; a refused code
 * names why in Launch-Code-Status (used, expired or unknown).
 */
export const consumeLaunchCode = (db: Database, siteLoginUrl: string) =>
  jsonRoute({
    method: "POST",
    path: "/embed/api/launches/consume",
    caller: () => undefined,
    read: (req) => req.body,
    input: consumeLaunchCodeInput,
    refusal: 'send {"code": "<the code from the launch URL\'s fragment>"}',
    output: consumeLaunchCodeOutput,
    async run({ input, requestId }) {
      const consumed = await consume(db, input.code);
      return {
        body: {
          request_id: requestId,
          session_token: consumed.sessionToken,
          expires_at: consumed.expiresAt.toISOString(),
          login_required: consumed.loginRequired,
          // The session token rides in the fragment: it never reaches the site's server logs.
          login_url: `${siteLoginUrl}#session=${encodeURIComponent(consumed.sessionToken)}`,
        },
      };
    },
  });
