import type { Database } from "@mga/core/db";
import { isPasswordSetupLinkUsable } from "@mga/core/local-site";

import { jsonRoute } from "../hosted-route";
import { passwordSetupCheckInput, passwordSetupCheckOutput } from "./site.types";

/**
 * POST /site/api/password-setup/check {token} → {usable}: the link page checks its token on
 * load, without using it, so a dead link says so before a password is typed (throttled per
 * client address in core).
 */
export const checkPasswordSetup = (db: Database) =>
  jsonRoute({
    method: "POST",
    path: "/site/api/password-setup/check",
    caller: (req) => req.clientAddress ?? "unknown",
    read: (req) => req.body,
    input: passwordSetupCheckInput,
    refusal: 'send {"token": "<the token from the link\'s fragment>"}',
    output: passwordSetupCheckOutput,
    async run({ auth: address, input, requestId }) {
      const usable = await isPasswordSetupLinkUsable(db, { token: input.token, address });
      return { body: { request_id: requestId, usable } };
    },
  });
