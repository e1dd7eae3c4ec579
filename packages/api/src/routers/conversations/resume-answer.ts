import { AppError } from "@mga/core/errors";

import { RESUME_PATH } from "../../streams/resume-stream";
import { apiProcedure } from "../../trpc";
import { resumeAnswerHeaders, resumeAnswerInput, resumeAnswerOutput } from "./conversations.types";

/**
 * The route as the document and the router know it (scope, parameters, statuses). It is
 * answered as text/event-stream by the stream handler (streams/resume-stream.ts), which the
 * host routes to before the REST adapter: a request never reaches this resolver.
 */
export const resumeAnswer = apiProcedure
  .meta({
    openapi: {
      method: "GET",
      path: RESUME_PATH,
      tags: ["conversations"],
      summary: "Resume the conversation's answer as an event stream",
      description:
        "Every frame after the one `Last-Event-ID` (or `last_event_id`) names, then the live answer until its one terminal frame (`public_api_complete`, or an `error` frame); without an id, the conversation's newest answer from its first frame. Works on any server, while the answer is generated or after it ended (an ended answer is replayed and the stream ends at once); frames are kept 24 hours after their answer ended. An id that is not one of ours is a 400, one of another conversation a 404.",
      protect: true,
      requestHeaders: resumeAnswerHeaders,
    },
    scope: "chat:read",
    errors: [404],
  })
  .input(resumeAnswerInput)
  .output(resumeAnswerOutput)
  .query(() => {
    throw new AppError("invalid_request", "this route answers text/event-stream");
  });
