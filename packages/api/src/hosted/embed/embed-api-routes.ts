import type { HostedChatStreamDeps } from "../../streams/stream-handler";
import type { HostedRoute } from "../hosted-route";
import { cancelChatAnswer } from "./cancel-chat-answer";
import { checkChat } from "./check-chat";
import { consumeLaunchCode } from "./consume-launch-code";
import { exchangeSession } from "./exchange-session";
import { listChatMessages } from "./list-chat-messages";
import { resumeChatAnswer } from "./resume-chat-answer";
import { sendChatMessage } from "./send-chat-message";

export interface EmbedApiDeps extends HostedChatStreamDeps {
  /** The site login the popup opens (the built-in /site/login, or a real site's page). */
  siteLoginUrl: string;
}

/**
 * The hosted chat page's JSON and stream routes (same origin as the page: no CORS, no
 * cookies; its tokens travel as `Authorization: Bearer`, chat-authority.ts). One file per
 * route, its shapes in embed.types.ts; none is part of the public /v1 document.
 */
export function embedApiRoutes(deps: EmbedApiDeps): HostedRoute[] {
  return [
    checkChat(deps.db),
    consumeLaunchCode(deps.db, deps.siteLoginUrl),
    exchangeSession(deps.db),
    sendChatMessage(deps),
    listChatMessages(deps.db),
    resumeChatAnswer(deps),
    cancelChatAnswer(deps.db),
  ];
}
