import type { ServerResponse } from "node:http";
import { answerStreams, type ApiRequest, cancelAnswerInput, type HostedChatStreamDeps, resumeAnswerInput, resumePoint, writeErrorResponse, writeFollowedAnswer, writeHostedChatAnswer } from "@mga/api";
import { cancelNewestAnswer } from "@mga/core/answers";
import { getOwnedConversation, listMessages } from "@mga/core/conversations";
import { AppError, parseOrThrow } from "@mga/core/errors";
import { chatHeader, consumeLaunchCode, embeddedMessageInput, embeddedOwner, exchangeSessionForChatToken, verifyChatToken } from "@mga/core/launches";
import { z } from "zod";
import { sendJson } from "../html";
import type { Route } from "../route-table";
import { sendChatPage, sendChatScript, sendDemoPartnerPage } from "./chat-page";
import { CHAT_LIBRARIES, sendChatLibrary } from "./chat-libraries";

/**
 * The hosted chat's browser-facing routes (same origin as the chat page, so no CORS and no
 * cookies: the page keeps its tokens in memory, mirrored in sessionStorage for resume,
 * and sends them as `Authorization: Bearer`).
 *   GET  /embed/partner/{integration}          the hosted chat page (chat-page.ts)
 *   GET  /embed/api/chat/check                 is this chat token still good (resume on refresh), and the header:
 *                                              the loan in words and the user's display name
 *   GET  /embed/demo-partner?launch=<url>      a sample partner page embedding one of this service's launch URLs (README walkthrough)
 *   GET  /embed/assets/{marked,purify}.js      the Markdown renderer and the sanitizer the page uses (chat-libraries.ts)
 *   POST /embed/api/launches/consume   {code}  → an authentication-only session; a refused code names
 *                                              why in Launch-Code-Status: used, expired or unknown
 *   GET  /embed/api/session                    → login_pending, or the chat token (once)
 *   POST /embed/api/chat/messages  {message, conversation_id?}  → the answer as an event stream
 *   GET  /embed/api/chat/conversations/{id}/messages            → history (this user's generation and this launch's loan only)
 *   GET  /embed/api/chat/conversations/{id}/stream   Last-Event-ID → the rest of an answer after a dropped stream (same owner rule)
 *   POST /embed/api/chat/conversations/{id}/cancel   → stops its answer being generated (the page's Stop; same owner rule)
 *   *    /embed/launch[/…]                     → 410: the retired origin-bound browser route
 */
const consumeBody = z.strictObject({ code: z.string().min(1).max(256) });
const chatBody = z.strictObject({ message: z.string().min(1).max(4000), conversation_id: z.string().min(1).max(64).optional() });
const HISTORY = /^\/embed\/api\/chat\/conversations\/([^/]+)\/messages$/;
const RESUME = /^\/embed\/api\/chat\/conversations\/([^/]+)\/stream$/;
const CANCEL = /^\/embed\/api\/chat\/conversations\/([^/]+)\/cancel$/;
const RETIRED = /^\/embed\/launch(\/.*)?$/;

export interface EmbedDeps extends HostedChatStreamDeps {
  /** The site login the popup opens (the built-in /site/login, or a real site's page). */
  siteLoginUrl: string;
  /** Origin of the hosted chat: the only launch URLs the sample partner page frames. */
  appUrl: string;
}

export function embedRoutes(deps: EmbedDeps): Route[] {
  const { db } = deps;
  const retired = (req: ApiRequest, res: ServerResponse) =>
    writeErrorResponse(res, req.requestId ?? "", new AppError("not_found", "the origin-bound launch route is retired; open the launch_url returned by POST /v1/embed-sessions", { status: 410 }));
  return [
    // Every method of the retired route is gone (spec 5 item 6), never a redirect.
    ...(["GET", "POST", "PUT", "PATCH", "DELETE"] as const).map((method) => ({ method, path: RETIRED, handle: retired })),
    { method: "GET", path: /^\/embed\/partner\/[a-z][a-z0-9_-]{2,63}$/, template: "/embed/partner/{partner}", handle: (_req, res) => sendChatPage(res) },
    {
      method: "GET",
      path: "/embed/demo-partner",
      handle: (req, res) => sendDemoPartnerPage(res, new URL(req.url ?? "/", "http://local").searchParams.get("launch") ?? "", deps.appUrl),
    },
    { method: "GET", path: "/embed/assets/chat.js", handle: (_req, res) => sendChatScript(res) },
    ...CHAT_LIBRARIES.map((library) => ({ method: "GET" as const, path: library.path, handle: (_req: ApiRequest, res: ServerResponse) => sendChatLibrary(res, library) })),
    {
      method: "GET",
      path: "/embed/api/chat/check",
      async handle(req, res) {
        const authority = await verifyChatToken(db, bearer(req));
        const header = await chatHeader(db, authority);
        sendJson(res, 200, {
          request_id: req.requestId ?? "",
          expires_at: authority.expiresAt.toISOString(),
          loan: {
            external_loan_id: header.loan.externalLoanId,
            program: header.loan.program ?? null,
            purpose: header.loan.purpose ?? null,
            property_state: header.loan.propertyState ?? null,
          },
          user: { display_name: header.userName },
        });
      },
    },
    {
      method: "POST",
      path: "/embed/api/launches/consume",
      async handle(req, res) {
        const parsed = consumeBody.safeParse(req.body);
        if (!parsed.success) throw new AppError("invalid_request", 'send {"code": "<the code from the launch URL\'s fragment>"}');
        const consumed = await consumeLaunchCode(db, parsed.data.code);
        sendJson(res, 200, {
          request_id: req.requestId ?? "",
          session_token: consumed.sessionToken,
          expires_at: consumed.expiresAt.toISOString(),
          login_required: consumed.loginRequired,
          // The session token rides in the fragment: it never reaches the site's server logs.
          login_url: `${deps.siteLoginUrl}#session=${encodeURIComponent(consumed.sessionToken)}`,
        });
      },
    },
    {
      method: "GET",
      path: "/embed/api/session",
      // This GET hands out the session's one chat token: a HEAD would spend it unseen.
      head: false,
      async handle(req, res) {
        const result = await exchangeSessionForChatToken(db, bearer(req));
        sendJson(
          res,
          200,
          result.status === "authorized"
            ? { request_id: req.requestId ?? "", status: "authorized", chat_token: result.chatToken, expires_at: result.expiresAt.toISOString() }
            : { request_id: req.requestId ?? "", status: "login_pending" },
        );
      },
    },
    {
      method: "POST",
      path: "/embed/api/chat/messages",
      async handle(req, res) {
        await writeHostedChatAnswer(deps, req, res, async () => {
          const authority = await verifyChatToken(db, bearer(req));
          const parsed = chatBody.safeParse(req.body);
          if (!parsed.success) throw new AppError("invalid_request", 'send {"message": "…", "conversation_id"?: "…"} (message 1-4000 characters)');
          return embeddedMessageInput(db, authority, { requestId: req.requestId ?? "", message: parsed.data.message, conversationId: parsed.data.conversation_id }, deps.observer);
        });
      },
    },
    {
      method: "GET",
      path: HISTORY,
      async handle(req, res, match) {
        const authority = await verifyChatToken(db, bearer(req));
        const messages = await listMessages(db, embeddedOwner(authority), decodeURIComponent(match?.[1] ?? ""));
        sendJson(res, 200, {
          request_id: req.requestId ?? "",
          messages: messages.map((m) => ({
            message_id: m.id,
            role: m.role,
            content: m.content,
            citations: m.citations,
            // An answer cut off by a failure is shown as such, never as a whole answer.
            complete: m.status === "complete",
            created_at: m.createdAt.toISOString(),
          })),
        });
      },
    },
    {
      method: "GET",
      path: RESUME,
      // The page resumes an answer whose stream dropped: the API's resume (its strict input, the
      // query's id winning over the header), under the history route's owner rule, written by
      // the one writer every stream uses.
      async handle(req, res, match) {
        const authority = await verifyChatToken(db, bearer(req));
        const query = Object.fromEntries(new URL(req.url ?? "/", "http://local").searchParams);
        const header = req.headers["last-event-id"];
        const input = parseOrThrow(resumeAnswerInput, { last_event_id: Array.isArray(header) ? header[0] : header, ...query, conversationId: decodeURIComponent(match?.[1] ?? "") });
        await getOwnedConversation(db, embeddedOwner(authority), input.conversationId);
        const from = await resumePoint(db, input.conversationId, input.last_event_id);
        await writeFollowedAnswer(db, req, res, from, { ...deps, headers: {} });
      },
    },
    {
      method: "POST",
      path: CANCEL,
      // The page's Stop: the API's cancel (POST /v1/conversations/{id}/cancel), under the history
      // route's owner rule, so a chat token stops only its own user's answers on its loan.
      async handle(req, res, match) {
        const authority = await verifyChatToken(db, bearer(req));
        const { conversationId } = parseOrThrow(cancelAnswerInput, { conversationId: decodeURIComponent(match?.[1] ?? "") });
        await getOwnedConversation(db, embeddedOwner(authority), conversationId);
        const answer = await cancelNewestAnswer(answerStreams(db), conversationId);
        sendJson(res, answer.stopping ? 202 : 200, { request_id: req.requestId ?? "", conversation_id: conversationId, message_id: answer.messageId, status: answer.status });
      },
    },
  ];
}

function bearer(req: ApiRequest): string {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  if (!match?.[1]) throw new AppError("unauthorized", "send the session token as Authorization: Bearer <token>");
  return match[1];
}
