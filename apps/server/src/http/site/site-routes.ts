import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError, completeSiteLogin, type Database, isAppError, setPasswordFromSetupLink, verifySiteLogin } from "@mga/core";
import { escapeHtml, sendPage } from "../html";

/**
 * The site login of the embedded default (the built-in site-account system's pages):
 *   GET/POST /site/login            opened by the hosted chat in a popup; the sign-in session
 *                                   token travels in the URL fragment, never to a server log
 *   GET/POST /site/password-setup   the link of the password-setup notification
 *   POST /site/api/login-complete   a real site (SITE_LOGIN_URL) reports a completed login
 * A real site replaces these (SITE_LOGIN_URL); see docs/site-accounts-contract.md.
 */
export async function handleSiteRoute(
  db: Database,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  options: { callbackSecret?: string | undefined } = {},
): Promise<boolean> {
  if (path === "/site/api/login-complete" && req.method === "POST") {
    await reportLoginFromSite(db, req, res, options.callbackSecret);
    return true;
  }
  if (path === "/site/login.js" && req.method === "GET") {
    sendScript(res, LOGIN_SCRIPT);
    return true;
  }
  if (path === "/site/login") {
    if (req.method === "GET") {
      loginPage(res, 200);
      return true;
    }
    if (req.method === "POST") {
      const form = await readForm(req);
      try {
        const accountId = await verifySiteLogin(db, { email: form.get("email") ?? "", password: form.get("password") ?? "" });
        await completeSiteLogin(db, { sessionToken: form.get("session") ?? "", siteAccountId: accountId });
        sendPage(res, 200, {
          title: "Signed in",
          body: `<h1>Signed in</h1><p id="done" data-done="1">You can return to the chat; this window closes by itself.</p>`,
          script: "/site/login.js",
        });
      } catch (error) {
        loginPage(res, isAppError(error) && error.code === "forbidden" ? 403 : 401, isAppError(error) ? error.message : "sign-in failed");
      }
      return true;
    }
  }
  if (path === "/site/password-setup") {
    const url = new URL(req.url ?? "/", "http://local");
    if (req.method === "GET") {
      passwordPage(res, 200, url.searchParams.get("token") ?? "");
      return true;
    }
    if (req.method === "POST") {
      const form = await readForm(req);
      try {
        await setPasswordFromSetupLink(db, { token: form.get("token") ?? "", password: form.get("password") ?? "" });
        sendPage(res, 200, { title: "Password set", body: "<h1>Password set</h1><p>You can now sign in from the chat.</p>" });
      } catch (error) {
        passwordPage(res, isAppError(error) && error.code === "invalid_request" ? 400 : 401, form.get("token") ?? "", isAppError(error) ? error.message : "failed");
      }
      return true;
    }
  }
  return false;
}

function loginPage(res: ServerResponse, status: number, error?: string): void {
  sendPage(res, status, {
    title: "Sign in",
    body: `<h1>Sign in to continue</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form class="stack" method="post" action="/site/login">
  <input type="hidden" name="session" id="session">
  <label>Email <input name="email" type="email" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>`,
    script: "/site/login.js",
  });
}

function passwordPage(res: ServerResponse, status: number, token: string, error?: string): void {
  sendPage(res, status, {
    title: "Set your password",
    body: `<h1>Set your password</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form class="stack" method="post" action="/site/password-setup">
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <label>New password (10 characters or more) <input name="password" type="password" autocomplete="new-password" minlength="10" required></label>
  <button type="submit">Set password</button>
</form>`,
  });
}

/**
 * The popup's script: carries the session token from the fragment into the form (a
 * fragment never reaches the server), keeps it across a failed attempt, and once signed in
 * tells the opener (origin-checked: same origin only) and closes.
 */
const LOGIN_SCRIPT = `(() => {
  const key = "mga:login-session";
  const storage = { get() { try { return sessionStorage.getItem(key); } catch { return null; } },
    set(v) { try { sessionStorage.setItem(key, v); } catch {} }, remove() { try { sessionStorage.removeItem(key); } catch {} } };
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("session");
  if (fromHash) { storage.set(fromHash); history.replaceState(null, "", location.pathname); }
  const field = document.getElementById("session");
  if (field) field.value = fromHash || storage.get() || "";
  if (document.getElementById("done")) {
    storage.remove();
    if (window.opener) window.opener.postMessage({ type: "mga:site-login", ok: true }, location.origin);
    setTimeout(() => window.close(), 300);
  }
})();`;

function sendScript(res: ServerResponse, script: string): void {
  res.setHeader("Content-Type", "text/javascript; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  res.end(script);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 16 * 1024) throw new AppError("invalid_request", "form too large", { status: 413 });
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export { sendScript };

/**
 * A real site's login page (SITE_LOGIN_URL) reports, server to server, that the user of a
 * sign-in session logged in: `Authorization: Bearer <SITE_CALLBACK_SECRET>`,
 * `{"session_token": "…", "site_account_id": "…"}` → 204. The account must be the one linked
 * to the launch's user (else 403), within the session's ten minutes (else 401).
 */
async function reportLoginFromSite(db: Database, req: IncomingMessage, res: ServerResponse, secret: string | undefined): Promise<void> {
  const presented = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
  if (!secret || !sameSecret(presented, secret)) throw new AppError("unauthorized", "unknown site credentials");
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  let body: { session_token?: unknown; site_account_id?: unknown };
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new AppError("invalid_request", "request body is not valid JSON");
  }
  if (typeof body.session_token !== "string" || typeof body.site_account_id !== "string") {
    throw new AppError("invalid_request", "send {\"session_token\": \"…\", \"site_account_id\": \"…\"}");
  }
  await completeSiteLogin(db, { sessionToken: body.session_token, siteAccountId: body.site_account_id });
  res.statusCode = 204;
  res.end();
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
