import { z } from "zod";

import type { Database } from "@mga/core/db";
import { chatHeader } from "@mga/core/launches";

import { jsonRoute } from "../hosted-route";
import { chatAuthority } from "./chat-authority";
import { chatCheckOutput } from "./embed.types";

/**
 * GET /embed/api/chat/check: is this chat token still good (the page resumes on a refresh),
 * and the header: the loan in words and the user's display name.
 */
export const checkChat = (db: Database) =>
  jsonRoute({
    method: "GET",
    path: "/embed/api/chat/check",
    caller: (req) => chatAuthority(db, req),
    read: () => ({}),
    input: z.strictObject({}),
    output: chatCheckOutput,
    async run({ auth, requestId }) {
      const header = await chatHeader(db, auth);
      return {
        body: {
          request_id: requestId,
          expires_at: auth.expiresAt.toISOString(),
          loan: {
            external_loan_id: header.loan.externalLoanId,
            program: header.loan.program ?? null,
            purpose: header.loan.purpose ?? null,
            property_state: header.loan.propertyState ?? null,
          },
          user: { display_name: header.userName },
        },
      };
    },
  });
