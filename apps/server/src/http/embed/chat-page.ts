import type { ServerResponse } from "node:http";

import { sendPage, sendScript } from "../html";
import { fillTemplate } from "../template";
import { CHAT_LIBRARIES } from "./chat-libraries";
import CHAT_STYLES from "./static/chat.css?raw";
import CHAT_PAGE from "./static/chat.html?raw";
import CHAT_SCRIPT from "./static/chat.js?raw";
import DEMO_PARTNER_REFUSED from "./static/demo-partner-refused.html?raw";
import DEMO_PARTNER_PAGE from "./static/demo-partner.html?raw";

/**
 * The hosted chat page, opened inside a partner's loan origination system as an iframe on
 * another site. Third-party cookies are blocked there, so it uses none: the launch code
 * comes from the URL fragment (and is removed from the address at once, never replayed), and
 * the session and chat tokens live in page memory, mirrored in sessionStorage (partitioned
 * per top-level site) only so that a refresh can resume (static/chat.js). The site login opens in a popup
 * (first-party there); the page learns of its success by polling, and sooner through an
 * origin-checked postMessage.
 */
export function sendChatPage(res: ServerResponse): void {
  sendPage(res, 200, {
    title: "Guideline assistant",
    frameable: true,
    style: CHAT_STYLES,
    body: fillTemplate(CHAT_PAGE),
    // The renderer and the sanitizer first: the chat's script uses both (chat-libraries.ts).
    script: [...CHAT_LIBRARIES.map((library) => library.path), "/embed/assets/chat.js"],
  });
}

/**
 * A stand-in for a partner's loan origination system, for trying launches locally: it
 * embeds a launch URL of this service (the hosted chat's own origin, an /embed/partner/ page)
 * in an iframe, and nothing else, so it cannot be used to frame other sites under our name.
 * Open it on another origin than the launch URL (http://localhost:… for a launch on
 * http://127.0.0.1:…) to see the cross-site behaviour.
 */
export function sendDemoPartnerPage(res: ServerResponse, launchUrl: string, appUrl: string): void {
  const appOrigin = new URL(appUrl).origin;
  const valid = isOwnLaunchUrl(launchUrl, appOrigin);
  sendPage(res, valid ? 200 : 400, {
    title: "Sample partner LOS",
    frameSrc: appOrigin,
    body: valid ? fillTemplate(DEMO_PARTNER_PAGE, { launchUrl }) : fillTemplate(DEMO_PARTNER_REFUSED),
  });
}

function isOwnLaunchUrl(candidate: string, appOrigin: string): boolean {
  try {
    const url = new URL(candidate);
    return (
      url.origin === appOrigin &&
      /^\/embed\/partner\/[a-z][a-z0-9_-]{2,63}$/.test(url.pathname) &&
      url.search === "" &&
      url.username === "" &&
      url.password === ""
    );
  } catch {
    return false;
  }
}

export function sendChatScript(res: ServerResponse): void {
  sendScript(res, CHAT_SCRIPT);
}
