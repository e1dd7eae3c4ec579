import type { ServerResponse } from "node:http";

import { siteApiRoutes, toApiError, type ApiRequest, type DirectoryPorts } from "@mga/api";
import { type Database } from "@mga/core/db";
import { isAppError } from "@mga/core/errors";
import { type JobQueue } from "@mga/core/jobs";
import {
  PASSWORD_SETUP_DAYS,
  requestPasswordSetup,
  setPasswordFromSetupLink,
  signInAtLocalSite,
} from "@mga/core/local-site";
import { confirmEmailVerification } from "@mga/core/partners/operations";
import { MIN_PASSWORD_LENGTH, PASSWORD_RULE } from "@mga/core/passwords";

import { sendPage, sendScript } from "../html";
import type { Route } from "../route-table";
import { fillTemplate } from "../template";
import ERROR_LINE from "./static/error.html?raw";
import LOGIN_PAGE from "./static/login.html?raw";
import LOGIN_SCRIPT from "./static/login.js?raw";
import PASSWORD_SET_PAGE from "./static/password-set.html?raw";
import PASSWORD_PAGE from "./static/password.html?raw";
import PASSWORD_SCRIPT from "./static/password.js?raw";
import RESET_SENT_PAGE from "./static/reset-sent.html?raw";
import RESET_PAGE from "./static/reset.html?raw";
import SIGNED_IN_PAGE from "./static/signed-in.html?raw";
import TOKEN_SCRIPT from "./static/token.js?raw";
import VERIFY_CONFIRMED_PAGE from "./static/verify-confirmed.html?raw";
import VERIFY_EXPIRED_PAGE from "./static/verify-expired.html?raw";
import VERIFY_PAGE from "./static/verify.html?raw";

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
            body: fillTemplate(RESET_SENT_PAGE, { email, days: PASSWORD_SETUP_DAYS }),
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
          await signInAtLocalSite(db, {
            sessionToken: fields.get("session") ?? "",
            email: fields.get("email") ?? "",
            password: fields.get("password") ?? "",
            address: address(req),
          });
          sendPage(res, 200, {
            title: "Signed in",
            body: fillTemplate(SIGNED_IN_PAGE),
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
          await setPasswordFromSetupLink(db, {
            token,
            password: form(req).get("password") ?? "",
            address: address(req),
          });
          sendPage(res, 200, {
            title: "Password set",
            // No link to /site/login: opened on its own it has no sign-in session, so its form
            // could only refuse. The way back is the assistant's own sign-in window (told below).
            body: fillTemplate(PASSWORD_SET_PAGE),
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
          const operation = await confirmEmailVerification(
            { db, queue: deps.queue, ...deps.directory },
            { token: form(req).get("token") ?? "", address: address(req) },
          );
          sendPage(res, 200, {
            title: "Email address",
            body: fillTemplate(operation.status === "expired" ? VERIFY_EXPIRED_PAGE : VERIFY_CONFIRMED_PAGE),
          });
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
const sentence = (message: string) =>
  `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? "" : "."}`;

/** A refused form's reason above it, or nothing. */
const errorLine = (error: string | undefined) => (error ? fillTemplate(ERROR_LINE, { message: error }) : "");

function loginPage(res: ServerResponse, status: number, error?: string, email = ""): void {
  sendPage(res, status, {
    title: "Sign in",
    body: fillTemplate(LOGIN_PAGE, { error: errorLine(error), email }),
    script: "/site/login.js",
  });
}

function resetPage(res: ServerResponse, status: number, error?: string, email = ""): void {
  sendPage(res, status, {
    title: "Set or reset your password",
    body: fillTemplate(RESET_PAGE, { error: errorLine(error), email }),
  });
}

function passwordPage(res: ServerResponse, status: number, token: string, error?: string): void {
  sendPage(res, status, {
    title: "Set your password",
    body: fillTemplate(PASSWORD_PAGE, {
      error: errorLine(error),
      token,
      minLength: MIN_PASSWORD_LENGTH,
      rule: PASSWORD_RULE,
    }),
    script: "/site/password.js",
  });
}

function verifyPage(res: ServerResponse, status: number, error?: string): void {
  sendPage(res, status, {
    title: "Confirm your email address",
    body: fillTemplate(VERIFY_PAGE, { error: errorLine(error) }),
    script: "/site/token.js",
  });
}
