import type { ServerResponse } from "node:http";
import { escapeHtml, sendPage, sendScript } from "../html";
import { CHAT_LIBRARIES } from "./chat-libraries";
import CHAT_STYLES from "./static/chat.css?raw";
import CHAT_SCRIPT from "./static/chat.js?raw";

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
    body: `<header id="context" class="chat-context" hidden>
  <dl id="loan" aria-label="Loan"></dl>
  <div class="who"><p id="user" class="muted"></p><button id="new-chat" class="secondary" type="button">New chat</button></div>
</header>
<h1>Mortgage guideline assistant</h1>
<p id="status" class="muted" role="status">Starting…</p>
<div id="login" hidden><p>Sign in with your site account to continue.</p><button id="login-button" type="button">Sign in</button></div>
<div id="unavailable" hidden><p class="error" role="alert">The assistant cannot be reached right now. Your chat is kept.</p><button id="retry-start" type="button">Try again</button></div>
<p id="ended" class="error" role="alert" hidden>This chat session has ended. Open the assistant again from your loan file to continue.</p>
<section id="chat" hidden aria-label="Chat">
  <div id="messages" aria-live="polite"></div>
  <div id="limit" class="notice" role="status" hidden><span id="limit-text"></span><button id="limit-cancel" class="secondary" type="button">Don't send</button></div>
  <form id="composer"><label class="visually-hidden" for="question">Question</label>
    <textarea id="question" name="question" maxlength="4000" placeholder="Ask about a guideline…" required aria-describedby="composer-hint"></textarea>
    <button id="send" type="submit">Send</button><button id="stop" class="secondary" type="button" hidden>Stop</button></form>
  <p id="answering" class="muted" role="status" hidden>Answering…</p>
  <p id="composer-hint" class="muted">Enter sends the question; Shift+Enter starts a new line.</p>
</section>`,
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
    body: valid
      ? `<h1>Sample partner LOS: loan file</h1><p class="muted">The assistant below is the hosted chat, in an iframe.</p>
<iframe title="Guideline assistant" src="${escapeHtml(launchUrl)}" style="width:100%;height:640px;border:1px solid #b8c0cc;border-radius:8px;background:white"></iframe>`
      : `<h1>Sample partner LOS</h1><p class="error">Pass a launch URL returned by POST /v1/embed-sessions: /embed/demo-partner?launch=&lt;launch_url, URL-encoded&gt;</p>`,
  });
}

function isOwnLaunchUrl(candidate: string, appOrigin: string): boolean {
  try {
    const url = new URL(candidate);
    return url.origin === appOrigin && /^\/embed\/partner\/[a-z][a-z0-9_-]{2,63}$/.test(url.pathname) && url.search === "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

export function sendChatScript(res: ServerResponse): void {
  sendScript(res, CHAT_SCRIPT);
}
