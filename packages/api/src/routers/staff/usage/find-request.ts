import { findLoggedRequest } from "@mga/core/usage";

import { staffProcedure } from "../../../trpc";
import { loggedRequestToView } from "./usage-views";
import { findRequestInput, findRequestOutput } from "./usage.types";

/** A logged request by its id (the header search), or null when the log has none (never logged, or past retention). */
export const findRequest = staffProcedure
  .input(findRequestInput)
  .output(findRequestOutput)
  .query(async ({ ctx, input }) => {
    const entry = await findLoggedRequest(ctx.db, input.request_id);
    return { request: entry ? loggedRequestToView(entry) : null };
  });
