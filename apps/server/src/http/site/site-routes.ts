import type { ServerResponse } from "node:http";
import { type ApiRequest, type DirectoryPorts, siteApiRoutes, toApiError } from "@mga/api";
import { type Database } from "@mga/core/db";
import { isAppError } from "@mga/core/errors";
import { type JobQueue } from "@mga/core/jobs";
import { confirmEmailVerification } from "@mga/core/partners/operations";
import { PASSWORD_SETUP_DAYS, requestPasswordSetup, setPasswordFromSetupLink, signInAtLocalSite } from "@mga/core/local-site";
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE } from "@mga/core/passwords";
import { escapeHtml, sendPage, sendScript } from "../html";
import LOGIN_SCRIPT from "./static/login.js?raw";
import PASSWORD_SCRIPT from "./static/password.js?raw";
import TOKEN_SCRIPT from "./static/token.js?raw";
import type { Route } from "../route-table";

/**
 * The built-in site-account system's pages (the embedded default):
 *   GET/POST /site/login            opened by the hosted chat in a popup; the sign-in session
 *                                   token travels in the URL fragment, never to a server log
 *   GET/POST /site/password-setup   the password-setup link (its token in the fragment)
 *   POST /site/api/password-setup/check  {token} → {usable}: the link page checks it on load, without using it
 *   GET/POST /site/password-reset   "Set or reset your password": sends a new setup link by email
 *   GET/POST /site/verify-email     the email-change confirmation link (its token in the fragment)
 *   POST /site/api/login-complete   a real site (SITE_LOGIN_URL) reports a completed login
 * Every page that checks a password or a token is throttled per client address (the login also
 * per launch's user, the reset per email typed); tokens in fragments never reach a server log or a Referer. A real site
 * replaces the first two (SITE_LOGIN_URL); see docs/site-accounts-contract.md.
 */
export interface SiteDeps {
  db: Database;
  queue: JobQueue;
  directory: DirectoryPorts;
  /** Secret a real site uses to report completed logins. */
  callbackSecret?: string | undefined;
}

export function siteRoutes(deps: SiteDeps): Route[] {
  const { db } = deps;
  const form = (req: ApiRequest) => req.form ?? new URLSearchParams();
  const address = (req: ApiRequest) => req.clientAddress ?? "unknown";
  return [
    ...siteApiRoutes(deps),
    { method: "GET", path: "/site/login.js", handle: (_req, res) => sendScript(res, LOGIN_SCRIPT) },
    { method: "GET", path: "/site/token.js", handle: (_req, res) => sendScript(res, TOKEN_SCRIPT) },
    { method: "GET", path: "/site/password.js", handle: (_req, res) => sendScript(res, PASSWORD_SCRIPT) },
    { method: "GET", path: "/site/password-reset", handle: (_req, res) => resetPage(res, 200) },
    {
      method: "POST",
      path: "/site/password-reset",
      async handle(req, res) {
        const email = form(req).get("email") ?? "";
        try {
          await requestPasswordSetup(db, { email, address: address(req) });
          sendPage(res, 200, {
            title: "Check your email",
            body: `<h1>Check your email</h1><p id="sent">If an account uses ${escapeHtml(email)}, we sent it a link to set a new password. The link works for ${PASSWORD_SETUP_DAYS} days; your current password works until you use it.</p>
<p><a href="/site/login">Back to sign in</a></p>`,
          });
        } catch (error) {
          refusal(res, error, (status, message) => resetPage(res, status, message, email));
        }
      },
    },
    { method: "GET", path: "/site/login", handle: (_req, res) => loginPage(res, 200) },
    {
      method: "POST",
      path: "/site/login",
      async handle(req, res) {
        const fields = form(req);
        try {
          await signInAtLocalSite(db, { sessionToken: fields.get("session") ?? "", email: fields.get("email") ?? "", password: fields.get("password") ?? "", address: address(req) });
          sendPage(res, 200, {
            title: "Signed in",
            body: `<h1>Signed in</h1><p id="done" data-done="1">You can return to the chat; this window closes by itself.</p>`,
            script: "/site/login.js",
          });
        } catch (error) {
          refusal(res, error, (status, message) => loginPage(res, status, message, fields.get("email") ?? ""));
        }
      },
    },
    { method: "GET", path: "/site/password-setup", handle: (_req, res) => passwordPage(res, 200, "") },
    {
      method: "POST",
      path: "/site/password-setup",
      async handle(req, res) {
        const token = form(req).get("token") ?? "";
        try {
          await setPasswordFromSetupLink(db, { token, password: form(req).get("password") ?? "", address: address(req) });
          sendPage(res, 200, {
            title: "Password set",
            // No link to /site/login: opened on its own it has no sign-in session, so its form
            // could only refuse. The way back is the assistant's own sign-in window (told below).
            body: `<h1>Password set</h1><p>You can now sign in to the chat with your new password.</p>
<p id="next">Go back to the assistant's sign-in window and sign in there with your new password. If you closed it, open the assistant again from your loan file.</p>
<p id="back"><button id="return" type="button" hidden>Return to the chat</button></p>`,
            script: "/site/password.js",
          });
        } catch (error) {
          refusal(res, error, (status, message) => passwordPage(res, status, token, message));
        }
      },
    },
    { method: "GET", path: "/site/verify-email", handle: (_req, res) => verifyPage(res, 200) },
    {
      method: "POST",
      path: "/site/verify-email",
      async handle(req, res) {
        try {
          const operation = await confirmEmailVerification({ db, queue: deps.queue, ...deps.directory }, { token: form(req).get("token") ?? "", address: address(req) });
          const body =
            operation.status === "expired"
              ? "<h1>This link has expired</h1><p>The change was not made. Ask for the change again to get a new link.</p>"
              : "<h1>Email address confirmed</h1><p>The change is being applied. Sign in again with the new address.</p>";
          sendPage(res, 200, { title: "Email address", body });
        } catch (error) {
          refusal(res, error, (status, message) => verifyPage(res, status, message));
        }
      },
    },
  ];
}

/** A refused form: its page again with the reason, and the status (and Retry-After) of the error. */
function refusal(res: ServerResponse, error: unknown, page: (status: number, message: string) => void): void {
  if (!isAppError(error)) throw error;
  const mapped = toApiError(error);
  for (const [name, value] of Object.entries(mapped.headers)) res.setHeader(name, value);
  page(mapped.status, sentence(mapped.message));
}

/** Messages of the domain start in lower case for composition; a page shows a sentence. */
const sentence = (message: string) => `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? "" : "."}`;

function loginPage(res: ServerResponse, status: number, error?: string, email = ""): void {
  sendPage(res, status, {
    title: "Sign in",
    body: `<h1>Sign in to continue</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<p id="no-session" class="error" hidden>This page signs you in to the assistant only when the assistant opens it. To sign in, open the assistant again from your loan file.</p>
<p id="password-set" class="notice" role="status" hidden>Your new password is set. Sign in with it below.</p>
<form class="stack" method="post" action="/site/login">
  <input type="hidden" name="session" id="session">
  <label>Email <input name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>
<p><a href="/site/password-reset">Set or reset your password</a></p>`,
    script: "/site/login.js",
  });
}

function resetPage(res: ServerResponse, status: number, error?: string, email = ""): void {
  sendPage(res, status, {
    title: "Set or reset your password",
    body: `<h1>Set or reset your password</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<p>Enter the email address you sign in with. We will send it a link to choose a new password.</p>
<form class="stack" method="post" action="/site/password-reset">
  <label>Email <input name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"></label>
  <button type="submit">Send the link</button>
</form>
<p><a href="/site/login">Back to sign in</a></p>`,
  });
}

function passwordPage(res: ServerResponse, status: number, token: string, error?: string): void {
  sendPage(res, status, {
    title: "Set your password",
    body: `<h1>Set your password</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<p id="link-dead" class="error" role="alert" hidden>This password link has expired or was already used. <a href="/site/password-reset">Ask for a new link</a>.</p>
<form class="stack" id="password-form" method="post" action="/site/password-setup">
  <input type="hidden" name="token" id="token" value="${escapeHtml(token)}">
  <label>New password <input name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required aria-describedby="rule"></label>
  <p id="rule" class="muted">${escapeHtml(PASSWORD_RULE)}</p>
  <button type="submit">Set password</button>
</form>`,
    script: "/site/password.js",
  });
}

function verifyPage(res: ServerResponse, status: number, error?: string): void {
  sendPage(res, status, {
    title: "Confirm your email address",
    body: `<h1>Confirm your new email address</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form class="stack" method="post" action="/site/verify-email">
  <input type="hidden" name="token" id="token">
  <p>Confirm that this address should replace the one you sign in with.</p>
  <button type="submit">Confirm</button>
</form>`,
    script: "/site/token.js",
  });
}
