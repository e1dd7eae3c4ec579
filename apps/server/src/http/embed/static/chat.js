/**
 * The hosted chat page's script (served as /embed/assets/chat.js; no third-party code besides marked and DOMPurify).
 *
 * Resume: the page keeps its state in memory, mirrored in sessionStorage. In a partner's
 * iframe that storage is partitioned per top-level site and per tab, so it survives a reload
 * of the partner's page, whose iframe still names the used `#code=`. The state remembers a
 * digest of the code it came from: when the fragment holds that same (used) code the page
 * resumes instead of consuming it again, so where storage works a used code is never sent
 * twice; any other code is a fresh launch, which keeps the conversation id (the history route
 * answers only the same user's conversations on the same loan, so another launch's is simply
 * not found). Where the browser refuses storage in third-party frames, a reload finds nothing,
 * sends the used code once more, is refused (codes are single-use), and asks for a fresh launch.
 *
 * Only a refusal ends a session (401, 403, 404, 410, or a code the server refuses): a
 * momentary failure (a 429, a 5xx, no network) keeps the saved state and offers Try again.
 *
 * An answer outlives its connection (the server generates it to its end and keeps its frames),
 * so a stream that drops, or that the server ends with ": reconnect" when it restarts, is
 * resumed from the last frame id received, a few times with a short back-off, into the same
 * bubble; the loan officer sees the answer go on. Only when that fails does the page say the
 * connection was lost, and its Retry then resumes the answer rather than asking (and storing)
 * the question a second time.
 *
 * Answers are Markdown, rendered by marked and sanitized by DOMPurify (served beside this
 * script, ../chat-libraries.ts) as they stream; nothing of an answer runs, links open in a new tab.
 * The list follows the newest answer unless the reader scrolled up. Stop asks the server to stop
 * the answer (the cancel route); New chat starts a conversation afresh.
 *
 * A refused question (429) is not an answer: the question goes back into the box, a notice says
 * whose limit it was (the user's own, or the one everyone at the organization shares, from the
 * RateLimit-Policy name) and counts down Retry-After, then the question is sent by itself.
 */
(() => {
  const $ = (id) => document.getElementById(id);
  const STORE = "mga:chat";
  const memory = {};
  const store = {
    get(key) {
      try {
        return sessionStorage.getItem(key);
      } catch {
        return memory[key] ?? null;
      }
    },
    set(key, value) {
      memory[key] = value;
      try {
        sessionStorage.setItem(key, value);
      } catch {
        /* storage refused: memory only */
      }
    },
    remove(key) {
      delete memory[key];
      try {
        sessionStorage.removeItem(key);
      } catch {
        /* storage refused: memory only */
      }
    },
  };
  const show = (id, on) => {
    $(id).hidden = !on;
  };
  const status = (text) => {
    $("status").textContent = text;
    show("status", text !== "");
  };
  const auth = (token) => ({ headers: { Authorization: "Bearer " + token } });
  const el = (tag, props, children) => {
    const node = Object.assign(document.createElement(tag), props || {});
    for (const child of children || []) if (child !== null && child !== undefined) node.append(child);
    return node;
  };

  // { launch: digest of the used code, session?: {token, login_url, login_required}, token?: chat token, conversationId? }
  let state = null;
  let chatToken = null;
  let conversationId = null;
  let busy = false;
  let answers = 0;
  // The answer being followed (for Stop), and a refused question waiting for its limit.
  let current = null;
  let waiting = null;

  const save = () => {
    if (state) store.set(STORE, JSON.stringify(state));
  };
  function load() {
    try {
      return JSON.parse(store.get(STORE) || "null");
    } catch {
      return null;
    }
  }

  // Which launch a state belongs to, without keeping the code itself.
  async function digest(code) {
    try {
      const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(code));
      return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
    } catch {
      return null;
    }
  }

  // A session is over only when the server says so; anything else may pass.
  const refused = (res) => [400, 401, 403, 404, 410].includes(res.status);

  function unavailable() {
    show("chat", false);
    show("login", false);
    status("");
    show("unavailable", true);
    $("retry-start").onclick = () => {
      show("unavailable", false);
      status("Starting…");
      start().catch(unavailable);
    };
  }

  // What ended the chat, in words, and what to do: the launch code's refusal names itself
  // (Launch-Code-Status); anything else is a session that ended.
  const ENDED = {
    used: "This link to the assistant was already used: each link opens the chat once. Open the assistant again from your loan file to continue.",
    expired:
      "This link to the assistant expired before the chat opened: a link works for two minutes. Open the assistant again from your loan file.",
    unknown: "This link to the assistant is not valid. Open the assistant again from your loan file.",
    ended: "This chat session has ended. Open the assistant again from your loan file to continue.",
  };

  function ended(reason) {
    store.remove(STORE);
    state = null;
    chatToken = null;
    conversationId = null;
    stopWaiting();
    const why = Object.prototype.hasOwnProperty.call(ENDED, reason) ? reason : "ended";
    $("ended").textContent = ENDED[why];
    $("ended").dataset.reason = why;
    show("chat", false);
    show("login", false);
    show("context", false);
    show("unavailable", false);
    show("ended", true);
    status("");
  }

  // Read once and taken out of the address at once; kept in memory so Try again after a failed
  // consume still has it.
  let launchCode = new URLSearchParams(location.hash.slice(1)).get("code");
  if (launchCode) history.replaceState(null, "", location.pathname);

  async function start() {
    const code = launchCode;
    const saved = load();
    const launch = code ? await digest(code) : null;
    if (code && !(saved && launch && saved.launch === launch)) return consume(code, launch);
    // A refresh, of this page or of the partner's page (whose iframe still names the used code).
    if (!saved) return ended();
    state = saved;
    conversationId = saved.conversationId || null;
    if (saved.token) return startChat(saved.token);
    if (saved.session) return awaitSignIn(saved.session);
    return ended();
  }

  async function consume(code, launch) {
    const res = await fetch("/embed/api/launches/consume", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code }),
    });
    if (!res.ok) return refused(res) ? ended(res.headers.get("Launch-Code-Status")) : unavailable();
    launchCode = null;
    const session = await res.json();
    const previous = load();
    conversationId = (previous && previous.conversationId) || null;
    state = {
      launch,
      session: { token: session.session_token, login_url: session.login_url, login_required: session.login_required },
      conversationId,
    };
    save();
    return awaitSignIn(state.session);
  }

  function awaitSignIn(session) {
    if (session.login_required) {
      status("Sign-in required.");
      show("login", true);
      $("login-button").onclick = () => window.open(session.login_url, "mga-site-login", "popup,width=480,height=640");
    } else {
      status("Signing in…");
    }
    return pollSession(session.token, new URL(session.login_url, location.href).origin);
  }

  async function pollSession(sessionToken, loginOrigin) {
    for (;;) {
      const res = await fetch("/embed/api/session", auth(sessionToken));
      if (!res.ok) return refused(res) ? ended() : unavailable();
      const body = await res.json();
      if (body.status === "authorized") {
        // The session route hands the chat token out once: saved before anything else can fail.
        state = { launch: state && state.launch, token: body.chat_token, conversationId };
        save();
        return startChat(body.chat_token);
      }
      await new Promise((resolve) => {
        const t = setTimeout(resolve, 1000);
        window.addEventListener("message", function once(e) {
          if (e.origin === loginOrigin && e.data && e.data.type === "mga:site-login") {
            clearTimeout(t);
            window.removeEventListener("message", once);
            resolve();
          }
        });
      });
    }
  }

  async function startChat(token) {
    const res = await fetch("/embed/api/chat/check", auth(token));
    if (!res.ok) return refused(res) ? ended() : unavailable();
    chatToken = token;
    state = { launch: state && state.launch, token, conversationId };
    save();
    showContext(await res.json());
    show("login", false);
    show("unavailable", false);
    show("chat", true);
    status("");
    if (conversationId) await loadHistory();
    $("question").focus();
  }

  // The header: the loan in words and who is signed in.
  function showContext(body) {
    const loan = body.loan || {};
    const items = [
      ["Loan", loan.external_loan_id],
      ["Program", loan.program],
      ["Purpose", loan.purpose],
      ["State", loan.property_state],
    ];
    $("loan").replaceChildren(
      ...items
        .filter(([, value]) => value)
        .map(([term, value]) => el("div", {}, [el("dt", { textContent: term }), el("dd", { textContent: value })])),
    );
    const name = body.user && body.user.display_name;
    $("user").textContent = name ? "Signed in as " + name : "Signed in";
    show("context", true);
  }

  async function loadHistory() {
    const res = await fetch(
      "/embed/api/chat/conversations/" + encodeURIComponent(conversationId) + "/messages",
      auth(chatToken),
    );
    if (res.status === 401) return ended();
    if (res.status === 404) {
      conversationId = null;
      state.conversationId = null;
      save();
      return;
    }
    if (!res.ok) {
      status("The earlier messages could not be loaded.");
      return;
    }
    const body = await res.json();
    $("messages").replaceChildren();
    for (const message of body.messages) {
      if (message.role === "user") userBubble(message.content);
      else if (message.role === "assistant") {
        const answer = answerBubble();
        if (message.complete) finishAnswer(answer, message.content || "", message.citations || []);
        else {
          showText(answer, message.content || "");
          answer.node.append(el("p", { className: "failure error", textContent: "This answer was interrupted." }));
        }
      }
    }
    toEnd();
  }

  // The list follows the newest answer while the reader is at its end (checked before each
  // change, so growth never counts as scrolling away); scrolled up to read, it stays put.
  function updating(change) {
    const list = $("messages");
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const result = change();
    if (atEnd) toEnd();
    return result;
  }
  const toEnd = () => {
    $("messages").scrollTop = $("messages").scrollHeight;
  };

  function userBubble(text) {
    const node = el("div", { className: "msg user" }, [el("div", { className: "text", textContent: text })]);
    updating(() => $("messages").append(node));
    return node;
  }

  function answerBubble() {
    const text = el("div", { className: "text" });
    const node = el("div", { className: "msg assistant" }, [text]);
    updating(() => $("messages").append(node));
    answers += 1;
    return { node, text, prefix: "answer-" + answers + "-source-" };
  }

  // An answer's Markdown through marked, then DOMPurify: the text is the upstream model's, so
  // nothing in it may run, load, restyle the page or take over ids. Links (http, https and mailto
  // only) open in a new tab, never inside the partner's frame. Without either library the
  // answer is shown as plain text.
  const PURIFY = {
    USE_PROFILES: { html: true },
    FORBID_TAGS: [
      "img",
      "picture",
      "video",
      "audio",
      "source",
      "svg",
      "math",
      "style",
      "form",
      "input",
      "button",
      "textarea",
      "select",
      "iframe",
      "object",
      "embed",
    ],
    FORBID_ATTR: ["style", "id", "name", "class"],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    RETURN_DOM_FRAGMENT: true,
  };
  const markdown = Boolean(
    window.marked && typeof window.marked.parse === "function" && window.DOMPurify && window.DOMPurify.isSupported,
  );
  if (markdown) {
    window.DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A" && node.hasAttribute("href")) {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer");
      }
    });
  }
  function rendered(text) {
    if (!markdown) return document.createTextNode(text);
    return window.DOMPurify.sanitize(window.marked.parse(text, { async: false, gfm: true }).trim(), PURIFY);
  }

  function showText(answer, text) {
    updating(() => answer.text.replaceChildren(rendered(text)));
  }

  // The answer's [n] markers link to its sources panel: each cited excerpt with its source and section.
  function finishAnswer(answer, text, citations) {
    const body = rendered(text);
    linkCitations(body, answer, citations);
    updating(() => {
      answer.text.replaceChildren(body);
      answer.node.append(answerActions(answer));
      if (citations.length > 0) answer.node.append(sourcesPanel(answer.prefix, citations));
    });
    answer.node.dataset.complete = "1";
  }

  // In the rendered answer's text (never inside a link or code), each [n] of a cited source becomes its link.
  function linkCitations(root, answer, citations) {
    if (citations.length === 0) return;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const texts = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      if (!(node.parentElement && node.parentElement.closest("a, code, pre"))) texts.push(node);
    for (const node of texts) {
      const text = node.nodeValue;
      const marker = /\[(\d+)\]/g;
      const parts = [];
      let last = 0;
      for (let m = marker.exec(text); m; m = marker.exec(text)) {
        const n = Number(m[1]);
        const citation = citations[n - 1];
        if (!citation) continue;
        parts.push(text.slice(last, m.index), citeLink(answer, citation, n, m[0]));
        last = marker.lastIndex;
      }
      if (parts.length > 0) {
        parts.push(text.slice(last));
        node.replaceWith(...parts);
      }
    }
  }

  function citeLink(answer, citation, n, label) {
    const link = el("a", {
      className: "cite",
      href: "#" + answer.prefix + n,
      textContent: label,
      title: sourceName(citation, n),
    });
    link.setAttribute("aria-label", "Source " + n + ": " + sourceName(citation, n));
    link.addEventListener("click", (event) => {
      event.preventDefault(); // no fragment in this frame's history
      const item = document.getElementById(answer.prefix + n);
      const panel = item.closest("details");
      if (panel) panel.open = true;
      item.scrollIntoView({ block: "nearest" });
      item.focus();
    });
    return link;
  }

  const sourceName = (citation, n) => citation.source_label || citation.title || "Source " + n;

  // Collapsed under the answer; a [n] marker opens it at its source.
  function sourcesPanel(prefix, citations) {
    const items = citations.map((citation, index) => {
      const section = citation.section || (citation.source_label ? citation.title : "");
      const url = typeof citation.url === "string" && /^https?:\/\//.test(citation.url) ? citation.url : null;
      return el("li", { id: prefix + (index + 1), tabIndex: -1 }, [
        el("span", { className: "source-label" }, [el("strong", { textContent: sourceName(citation, index + 1) })]),
        section ? el("span", { className: "source-section", textContent: " · " + section }) : null,
        citation.excerpt ? el("blockquote", { textContent: citation.excerpt }) : null,
        url
          ? el("a", { href: url, target: "_blank", rel: "noopener noreferrer", textContent: "Open the source" })
          : null,
      ]);
    });
    const summary = el("summary", { textContent: citations.length === 1 ? "1 source" : citations.length + " sources" });
    return el("details", { className: "sources" }, [summary, el("ol", {}, items)]);
  }

  // Copy: the answer as it reads (no markup), for a note in the loan file.
  function answerActions(answer) {
    const copy = el("button", { type: "button", className: "copy", textContent: "Copy" });
    copy.addEventListener("click", async () => {
      const done = await copyText(answer.text.innerText.trim());
      copy.textContent = done ? "Copied" : "Select the text to copy it";
      setTimeout(() => {
        copy.textContent = "Copy";
      }, 2000);
    });
    return el("div", { className: "answer-actions" }, [copy]);
  }

  // The clipboard API needs the partner's frame to allow it; the older way works from the click itself.
  async function copyText(text) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      /* not allowed here: the older way below */
    }
    const area = el("textarea", { value: text, readOnly: true, className: "visually-hidden" });
    document.body.append(area);
    area.select();
    let done = false;
    try {
      done = document.execCommand("copy");
    } catch {
      /* not copied: done stays false */
    }
    area.remove();
    return done;
  }

  function setBusy(on) {
    busy = on;
    $("send").disabled = on || waiting !== null;
    show("stop", on);
    $("stop").disabled = false;
    $("new-chat").disabled = on;
    show("answering", on);
    $("messages").setAttribute("aria-busy", on ? "true" : "false");
    for (const button of document.querySelectorAll(".retry")) button.disabled = on;
  }

  // A failed answer keeps what arrived and says why in plain words. Its Retry resumes the same
  // answer where the stream had started (the question is stored and the answer goes on without
  // us), and otherwise sends the question again.
  function failed(run, why, resumable) {
    showText(run.answer, run.text);
    run.answer.node.dataset.failed = "1";
    const retry = el("button", { type: "button", className: "retry", textContent: "Retry" });
    const notice = el("p", { className: "failure error", role: "alert" }, [why, retry]);
    retry.addEventListener("click", () => {
      if (busy) return;
      if (resumable) {
        notice.remove();
        delete run.answer.node.dataset.failed;
        answerFrom(run, null);
      } else {
        run.answer.node.remove();
        ask(run.message, run.userNode);
      }
    });
    updating(() => run.answer.node.append(notice));
  }

  // Stopped on request: what was written stays, said to be partial.
  function stopped(run) {
    showText(run.answer, run.text);
    run.answer.node.dataset.stopped = "1";
    updating(() =>
      run.answer.node.append(
        el("p", {
          className: "stopped muted",
          role: "status",
          textContent: "You stopped this answer; it is incomplete.",
        }),
      ),
    );
  }

  // Stop: the server stops generating (the cancel route); the stream then ends, as stopped. The
  // answer is named by its conversation, known from the stream's first frame: a Stop pressed
  // before it is sent as soon as that frame arrives.
  function requestStop(run) {
    if (run.stopRequested) return;
    run.stopRequested = true;
    $("stop").disabled = true;
    if (run.announced) sendCancel(run);
  }

  async function sendCancel(run) {
    const res = await fetch("/embed/api/chat/conversations/" + encodeURIComponent(run.conversationId) + "/cancel", {
      method: "POST",
      ...auth(chatToken),
    }).catch(() => null);
    if (res && res.ok) return;
    // Not stopped: the answer goes on, and Stop can be pressed again.
    run.stopRequested = false;
    if (current === run) {
      $("stop").disabled = false;
      status("The answer could not be stopped just now.");
    }
  }

  // A refused question waits for its limit. Which limit, from the RateLimit-Policy's name: the
  // user's own, or the one everyone at the organization shares (not something he did).
  function limited(message, res) {
    const seconds = Math.max(1, Math.ceil(Number(res.headers.get("Retry-After")) || 60));
    const policy = /^"([^"]+)";q=(\d+)(?:;w=(\d+))?/.exec(res.headers.get("RateLimit-Policy") || "");
    const own = policy !== null && policy[1] === "per-user";
    const why = own
      ? "You have reached the limit of " +
        policy[2] +
        " questions " +
        perWindow(Number(policy[3] || 60)) +
        " for each person."
      : "Your organization's assistant is busy right now: everyone at your organization shares one limit, and it is used up for the moment.";
    if ($("question").value.trim() === "") $("question").value = message;
    stopWaiting();
    waiting = { until: Date.now() + seconds * 1000, why, timer: 0 };
    $("limit").dataset.limit = own ? "per-user" : "shared";
    show("limit", true);
    $("send").disabled = true;
    countDown();
  }

  const perWindow = (seconds) =>
    seconds === 60 ? "a minute" : seconds === 3600 ? "an hour" : "every " + inWords(seconds);
  const inWords = (seconds) =>
    seconds < 90 ? seconds + (seconds === 1 ? " second" : " seconds") : Math.ceil(seconds / 60) + " minutes";

  function countDown() {
    if (!waiting) return;
    const left = Math.ceil((waiting.until - Date.now()) / 1000);
    if (left <= 0) {
      stopWaiting();
      submitQuestion();
      return;
    }
    $("limit-text").textContent = waiting.why + " Your question will be sent in " + inWords(left) + ".";
    waiting.timer = setTimeout(countDown, 250);
  }

  function stopWaiting() {
    if (waiting) clearTimeout(waiting.timer);
    waiting = null;
    show("limit", false);
    $("send").disabled = busy;
  }

  $("limit-cancel").addEventListener("click", () => {
    stopWaiting();
    $("question").focus();
  });

  async function ask(message, userNode) {
    const run = {
      message,
      userNode,
      answer: answerBubble(),
      text: "",
      citations: [],
      conversationId,
      lastId: null,
      announced: false,
      stopRequested: false,
    };
    current = run;
    setBusy(true);
    const res = await fetch("/embed/api/chat/messages", {
      method: "POST",
      headers: { Authorization: "Bearer " + chatToken, "Content-Type": "application/json" },
      body: JSON.stringify(conversationId ? { message, conversation_id: conversationId } : { message }),
    }).catch(() => null);
    if (res && res.ok && res.body) return answerFrom(run, res);
    setBusy(false);
    if (!res) failed(run, "The connection to the assistant was lost.", false);
    else if (res.status === 401) ended();
    else if (res.status === 429) {
      // Not asked: no question nor answer in the list; the question waits in the box.
      run.answer.node.remove();
      if (userNode) userNode.remove();
      limited(message, res);
    } else failed(run, "The assistant could not answer just now.", false);
  }

  // Waits before each resumption of a dropped stream: a few quick tries, then the notice.
  const RESUME_DELAYS = [250, 500, 1000, 2000];
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // Follows one answer to its end, over as many connections as it takes: the question's own
  // stream, then, whenever a stream drops or the server asks for it (": reconnect"), the resume
  // route from the last id received (without res, as Retry does, at once). The answer is
  // generated to its end whether or not the page is connected, so the bubble just keeps growing.
  async function answerFrom(run, res) {
    current = run;
    setBusy(true);
    try {
      const outcome = await follow(run, res).catch(() => "dropped");
      if (outcome === "complete") finishAnswer(run.answer, run.text, run.citations);
      else if (outcome === "ended") ended();
      else if (outcome === "error" && run.stopRequested) stopped(run);
      else if (outcome === "error") failed(run, "The assistant could not finish this answer.", false);
      // Resumable as long as the server has the answer; one it refuses to resume is asked again.
      else failed(run, "The connection to the assistant was lost.", outcome !== "refused" && run.lastId !== null);
    } finally {
      current = null;
      setBusy(false);
    }
  }

  async function follow(run, res) {
    let outcome = res ? await readAnswer(run, res) : await resumeOnce(run);
    let tries = 0;
    while ((outcome === "dropped" || outcome === "reconnect") && run.lastId && tries < RESUME_DELAYS.length) {
      // A restarting server has another behind the same address ready now; a drop gets a moment more each time.
      if (outcome === "dropped") await sleep(RESUME_DELAYS[tries]);
      tries += 1;
      const before = run.lastId;
      outcome = await resumeOnce(run);
      // A stream that brought frames was a connection that worked: the next drop starts the tries afresh.
      if (run.lastId !== before) tries = 0;
    }
    return outcome;
  }

  async function resumeOnce(run) {
    let res;
    try {
      res = await fetch("/embed/api/chat/conversations/" + encodeURIComponent(run.conversationId) + "/stream", {
        headers: { Authorization: "Bearer " + chatToken, "Last-Event-ID": run.lastId },
      });
    } catch {
      return "dropped";
    }
    if (res.status === 401) return "ended";
    if (refused(res)) return "refused";
    if (!res.ok || !res.body) return "dropped";
    return readAnswer(run, res);
  }

  // Reads an answer's event stream into the run: "complete" or "error" at its terminal frame,
  // "reconnect" when the server asks for a resume, "dropped" when it breaks off before either.
  async function readAnswer(run, res) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return "dropped";
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const outcome = readFrame(run, block);
          if (outcome) {
            reader.cancel().catch(() => {});
            return outcome;
          }
        }
      }
    } catch {
      return "dropped";
    }
  }

  // One block of the stream: its "id:" and "data:" lines, or comments (lines starting with ":").
  function readFrame(run, block) {
    const lines = block.split("\n");
    if (lines.some((line) => /^: ?reconnect\b/.test(line))) return "reconnect";
    const data = lines
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
      .join("\n");
    if (!data) return null;
    const event = JSON.parse(data);
    if (event.type === "public_api_conversation") {
      conversationId = event.conversation_id;
      run.conversationId = conversationId;
      run.announced = true;
      if (state) {
        state.conversationId = conversationId;
        save();
      }
      if (run.stopRequested) sendCancel(run);
    } else if (event.type === "content") {
      run.text += event.content;
      showText(run.answer, run.text);
    } else if (event.type === "content_postprocessed") {
      run.text = event.content;
      showText(run.answer, run.text);
    } else if (event.type === "complete") run.citations = Array.isArray(event.citations) ? event.citations : [];
    // The id counts once its frame is taken in: a resume asks for what comes after it.
    const id = lines.find((line) => line.startsWith("id:"));
    if (id) run.lastId = id.slice(id.startsWith("id: ") ? 4 : 3);
    if (event.type === "public_api_complete") return "complete";
    if (event.type === "error") return "error";
    return null;
  }

  // Sends what the box holds: from the composer, or by itself once a limit has passed.
  function submitQuestion() {
    const message = $("question").value.trim();
    if (!message || !chatToken || busy || waiting) return;
    $("question").value = "";
    const node = userBubble(message);
    toEnd(); // a question just asked: its answer is what the reader wants to see
    ask(message, node);
  }

  $("question").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      $("composer").requestSubmit();
    }
  });

  $("composer").addEventListener("submit", (event) => {
    event.preventDefault();
    submitQuestion();
  });

  $("stop").addEventListener("click", () => {
    if (current) requestStop(current);
  });

  // New chat: the next question starts a conversation of its own (the earlier one stays stored).
  $("new-chat").addEventListener("click", () => {
    if (busy) return;
    conversationId = null;
    if (state) {
      state.conversationId = null;
      save();
    }
    $("messages").replaceChildren();
    answers = 0;
    status("");
    $("question").focus();
  });

  start().catch(unavailable);
})();
