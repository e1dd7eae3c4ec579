import type { ServerResponse } from "node:http";
import { escapeHtml, sendPage } from "../html";
import { sendScript } from "../site/site-routes";

/**
 * The hosted chat page, opened inside a partner's loan origination system as an iframe on
 * another site. Third-party cookies are blocked there, so it uses none: the launch code
 * comes from the URL fragment (and is removed from the address at once, never replayed), and
 * the session and chat tokens live in page memory, mirrored in sessionStorage (partitioned
 * per top-level site) only so that a refresh can resume. The site login opens in a popup
 * (first-party there); the page learns of its success by polling, and sooner through an
 * origin-checked postMessage.
 */
export function sendChatPage(res: ServerResponse): void {
  sendPage(res, 200, {
    title: "Guideline assistant",
    frameable: true,
    body: `<h1>Mortgage guideline assistant</h1>
<p id="status" class="muted" role="status">Starting…</p>
<div id="login" hidden><p>Sign in with your site account to continue.</p><button id="login-button" type="button">Sign in</button></div>
<p id="ended" class="error" role="alert" hidden>This chat session has ended. Open the assistant again from your loan file to start a fresh launch.</p>
<section id="chat" hidden aria-label="Chat">
  <div id="messages" aria-live="polite"></div>
  <form id="composer"><label class="muted" for="question" hidden>Question</label>
    <textarea id="question" name="question" maxlength="4000" placeholder="Ask about a guideline…" required></textarea>
    <button id="send" type="submit">Send</button></form>
</section>`,
    script: "/embed/assets/chat.js",
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

const CHAT_SCRIPT = `(() => {
  const $ = (id) => document.getElementById(id);
  const STORE = "mga:chat";
  // Tokens live in page memory. sessionStorage (partitioned per top-level site) mirrors them
  // so a refresh can resume, where the browser allows storage in third-party frames at all.
  const memory = {};
  const store = {
    get(key) { try { return sessionStorage.getItem(key); } catch { return memory[key] ?? null; } },
    set(key, value) { memory[key] = value; try { sessionStorage.setItem(key, value); } catch {} },
    remove(key) { delete memory[key]; try { sessionStorage.removeItem(key); } catch {} },
  };
  const show = (id, on) => { $(id).hidden = !on; };
  const status = (text) => { $("status").textContent = text; };
  let chatToken = null;
  let conversationId = null;

  function ended() {
    store.remove(STORE);
    chatToken = null;
    show("chat", false); show("login", false); show("ended", true); status("");
  }

  function startChat(token) {
    chatToken = token;
    store.set(STORE, JSON.stringify({ token, conversationId }));
    show("login", false); show("chat", true); status("Signed in.");
    $("question").focus();
  }

  async function pollSession(sessionToken, loginOrigin) {
    for (;;) {
      const res = await fetch("/embed/api/session", { headers: { Authorization: "Bearer " + sessionToken } });
      if (!res.ok) return ended();
      const body = await res.json();
      if (body.status === "authorized") return startChat(body.chat_token);
      await new Promise((resolve) => { const t = setTimeout(resolve, 1000); window.addEventListener("message", function once(e) {
        if (e.origin === loginOrigin && e.data && e.data.type === "mga:site-login") { clearTimeout(t); window.removeEventListener("message", once); resolve(); }
      }); });
    }
  }

  async function start() {
    const code = new URLSearchParams(location.hash.slice(1)).get("code");
    if (code) {
      history.replaceState(null, "", location.pathname); // the fragment is never replayed
      const res = await fetch("/embed/api/launches/consume", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }) });
      if (!res.ok) return ended();
      const session = await res.json();
      if (session.login_required) {
        status("Sign-in required.");
        show("login", true);
        $("login-button").onclick = () => window.open(session.login_url, "mga-site-login", "popup,width=480,height=640");
      } else {
        status("Signing in…");
      }
      return pollSession(session.session_token, new URL(session.login_url, location.href).origin);
    }
    const saved = JSON.parse(store.get(STORE) || "null");
    if (!saved) return ended();
    conversationId = saved.conversationId || null;
    const res = await fetch("/embed/api/chat/check", { headers: { Authorization: "Bearer " + saved.token } });
    return res.ok ? startChat(saved.token) : ended();
  }

  function bubble(role, text) {
    const div = document.createElement("div");
    div.className = "msg " + role;
    div.textContent = text;
    $("messages").appendChild(div);
    return div;
  }

  $("composer").addEventListener("submit", async (event) => {
    event.preventDefault();
    const message = $("question").value.trim();
    if (!message || !chatToken) return;
    $("question").value = "";
    $("send").disabled = true;
    bubble("user", message);
    const answer = bubble("assistant", "");
    try {
      const res = await fetch("/embed/api/chat/messages", {
        method: "POST",
        headers: { Authorization: "Bearer " + chatToken, "Content-Type": "application/json" },
        body: JSON.stringify(conversationId ? { message, conversation_id: conversationId } : { message }),
      });
      if (res.status === 401) return ended();
      if (res.status === 429) {
        const seconds = Number(res.headers.get("Retry-After")) || 60;
        answer.textContent = "Too many questions in a short time. Try again in " + (seconds < 90 ? seconds + " seconds." : Math.ceil(seconds / 60) + " minutes.");
        answer.dataset.notice = "rate_limited";
        $("question").value = message;
        return;
      }
      if (!res.ok || !res.body) { answer.textContent = "The assistant is unavailable. Try again."; return; }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\\n\\n")) !== -1) {
          const frame = buffer.slice(0, end); buffer = buffer.slice(end + 2);
          if (!frame.startsWith("data: ")) continue;
          const event = JSON.parse(frame.slice(6));
          if (event.type === "public_api_conversation") conversationId = event.conversation_id;
          else if (event.type === "content") answer.textContent += event.content;
          else if (event.type === "content_postprocessed") answer.textContent = event.content;
          else if (event.type === "public_api_complete") { answer.dataset.complete = "1"; store.set(STORE, JSON.stringify({ token: chatToken, conversationId })); }
          else if (event.type === "error") answer.textContent += "\\n[The answer was interrupted. Try again.]";
        }
      }
    } finally {
      $("send").disabled = false;
    }
  });

  start().catch(() => ended());
})();`;
