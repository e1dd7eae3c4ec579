import type { Database } from "@mga/core/db";
import { AppError } from "@mga/core/errors";
import { sameSecret } from "@mga/core/ids";
import { completeSiteLogin } from "@mga/core/launches";

import { bearerToken } from "../../pipeline/bearer-token";
import { jsonRoute } from "../hosted-route";
import { siteLoginReportInput, siteLoginReportOutput } from "./site.types";

/**
 * POST /site/api/login-complete: a real site's login page (SITE_LOGIN_URL) reports, server to
 * server, that the user of a sign-in session logged in: `Authorization: Bearer
 * <SITE_CALLBACK_SECRET>`, `{"session_token": "…", "site_account_id": "…"}` → 204. The account
 * must be the one linked to the launch's user (else 403), within the session's ten minutes
 * (else 401). Without a configured secret every report is refused.
 */
export const reportSiteLogin = (db: Database, secret: string | undefined) =>
  jsonRoute({
    method: "POST",
    path: "/site/api/login-complete",
    caller(req) {
      if (!secret || !sameSecret(bearerToken(req.headers.authorization) ?? "", secret))
        throw new AppError("unauthorized", "unknown site credentials");
    },
    read: (req) => req.body ?? {},
    input: siteLoginReportInput,
    refusal: 'send {"session_token": "…", "site_account_id": "…"}',
    output: siteLoginReportOutput,
    async run({ input }) {
      await completeSiteLogin(db, { sessionToken: input.session_token, siteAccountId: input.site_account_id });
      return { status: 204, body: undefined };
    },
  });
