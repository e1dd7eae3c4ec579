import type { ServerResponse } from "node:http";

import { embedApiRoutes, writeErrorResponse, type ApiRequest, type EmbedApiDeps } from "@mga/api";
import { AppError } from "@mga/core/errors";

import type { Route } from "../route-table";
import { CHAT_LIBRARIES, sendChatLibrary } from "./chat-libraries";
import { sendChatPage, sendChatScript, sendDemoPartnerPage } from "./chat-page";

/**
 * The hosted chat's browser-facing routes (same origin as the chat page, so no CORS and no
 * cookies: the page keeps its tokens in memory, mirrored in sessionStorage for resume,
 * and sends them as `Authorization: Bearer`).
 *   GET  /embed/partner/{integration}          the hosted chat page (chat-page.ts)
 *   GET  /embed/demo-partner?launch=<url>      a sample partner page embedding one of this service's launch URLs (README walkthrough)
 *   GET  /embed/assets/chat.js                 the page's script (static/chat.js)
 *   GET  /embed/assets/{marked,purify}.js      the Markdown renderer and the sanitizer the page uses (chat-libraries.ts)
 *   *    /embed/launch[/…]                     → 410: the retired origin-bound browser route
 * and its JSON and stream routes, one handler each in @mga/api (src/hosted/embed/):
 *   GET  /embed/api/chat/check                 is this chat token still good (resume on refresh), and the header
 *   POST /embed/api/launches/consume   {code}  → an authentication-only session
 *   GET  /embed/api/session                    → login_pending, or the chat token (once)
 *   POST /embed/api/chat/messages  {message, conversation_id?}  → the answer as an event stream
 *   GET  /embed/api/chat/conversations/{id}/messages            → history
 *   GET  /embed/api/chat/conversations/{id}/stream   Last-Event-ID → the rest of an answer
 *   POST /embed/api/chat/conversations/{id}/cancel   → stops its answer being generated
 */
const RETIRED = /^\/embed\/launch(\/.*)?$/;

export interface EmbedDeps extends EmbedApiDeps {
  /** Origin of the hosted chat: the only launch URLs the sample partner page frames. */
  appUrl: string;
}

export function embedRoutes(deps: EmbedDeps): Route[] {
  const retired = (req: ApiRequest, res: ServerResponse) =>
    writeErrorResponse(
      res,
      req.requestId ?? "",
      new AppError(
        "not_found",
        "the origin-bound launch route is retired; open the launch_url returned by POST /v1/embed-sessions",
        { status: 410 },
      ),
    );
  return [
    // Every method of the retired route is gone (spec 5 item 6), never a redirect.
    ...(["GET", "POST", "PUT", "PATCH", "DELETE"] as const).map((method) => ({
      method,
      path: RETIRED,
      handle: retired,
    })),
    {
      method: "GET",
      path: /^\/embed\/partner\/[a-z][a-z0-9_-]{2,63}$/,
      template: "/embed/partner/{partner}",
      handle: (_req, res) => sendChatPage(res),
    },
    {
      method: "GET",
      path: "/embed/demo-partner",
      handle: (req, res) =>
        sendDemoPartnerPage(res, new URL(req.url ?? "/", "http://local").searchParams.get("launch") ?? "", deps.appUrl),
    },
    { method: "GET", path: "/embed/assets/chat.js", handle: (_req, res) => sendChatScript(res) },
    ...CHAT_LIBRARIES.map((library) => ({
      method: "GET" as const,
      path: library.path,
      handle: (_req: ApiRequest, res: ServerResponse) => sendChatLibrary(res, library),
    })),
    ...embedApiRoutes(deps),
  ];
}
