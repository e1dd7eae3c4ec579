import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { Browser, Frame } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { requestPasswordSetup } from "@mga/core/local-site";

import { launchBrowser } from "../support/browser";
import {
  CHAT_PASSWORD,
  chatFrame,
  openInPartnerPage,
  prepareLaunches,
  screenshot,
  signInThroughPopup,
  startPartnerSite,
} from "../support/hosted-chat";
import type { TestApp } from "../support/test-app";
import { answer, received, upstreamAnswers, upstreamStatus, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * The hosted chat as a loan officer uses it, in a real browser: the partner's page on one
 * origin (localhost) embeds the launch served from another (127.0.0.1).
 */
const setup = useAppWithMockedUpstream();
let browser: Browser;
let partnerSite: Awaited<ReturnType<typeof startPartnerSite>>;

beforeAll(async () => {
  browser = await launchBrowser();
  partnerSite = await startPartnerSite();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  partnerSite?.close();
});

describe("hosted chat: refresh", () => {
  it(
    "reloading the partner page keeps the session and the conversation, and the next question continues it",
    { timeout: 90_000 },
    async () => {
      upstreamAnswers((call) =>
        answer(
          call.body.history.length === 0 ? "First answer about reserves. [1]" : "Second answer, same conversation. [1]",
        ),
      );
      const { email, launchUrl } = await prepareLaunches(setup.app);
      const context = await browser.newContext();
      const page = await context.newPage();
      const frame = await openInPartnerPage(page, partnerSite.origin, await launchUrl());
      await signInThroughPopup(context, frame, email);
      await frame.fill("#question", "How many months of reserves?");
      await frame.click("#send");
      await frame.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });

      // F5 on the partner's page: the iframe's src still holds the used #code= fragment.
      await page.reload();
      const reloaded = await chatFrame(page, partnerSite.origin);
      await reloaded.waitForSelector("#chat", { state: "visible", timeout: 10_000 }).catch(async (error: unknown) => {
        throw new Error(
          `after reload: status=${await reloaded.textContent("#status")} ended=${await reloaded.isVisible("#ended")}: ${String(error)}`,
        );
      });
      // The conversation so far is shown again.
      await reloaded.waitForSelector(".msg.assistant", { timeout: 10_000 });
      const shown = await reloaded.$$eval(".msg", (nodes) =>
        nodes.map((n) => `${n.className}: ${n.querySelector(".text")?.textContent ?? n.textContent}`),
      );
      expect(shown).toEqual([
        expect.stringMatching(/^msg user: How many months of reserves\?$/),
        expect.stringMatching(/^msg assistant.*: First answer about reserves\. \[1\]/),
      ]);
      await screenshot(page, "chat-resumed-after-reload");

      await reloaded.fill("#question", "And for a second home?");
      await reloaded.click("#send");
      await reloaded.waitForSelector(".msg.assistant[data-complete='1'] >> nth=1", { timeout: 15_000 });
      // The upstream got the earlier exchange as history, and the database holds one conversation of four messages.
      expect(received.at(-1)?.body.history.map((m: { content: string }) => m.content)).toEqual([
        "How many months of reserves?",
        "First answer about reserves. [1]",
      ]);
      const { rows } = await setup.app.t.db.sql.query<{ conversation_id: string }>(
        "SELECT conversation_id FROM messages WHERE content IN ('How many months of reserves?', 'And for a second home?')",
      );
      expect(rows).toHaveLength(2);
      expect(rows[0]?.conversation_id).toBe(rows[1]?.conversation_id);
      await context.close();
    },
  );

  it(
    "a reload while the service briefly fails keeps the chat: it offers Try again, which resumes the same conversation",
    { timeout: 90_000 },
    async () => {
      upstreamAnswers(() => answer("An answer kept across an outage."));
      const { email, launchUrl } = await prepareLaunches(setup.app);
      const context = await browser.newContext();
      const page = await context.newPage();
      const frame = await openInPartnerPage(page, partnerSite.origin, await launchUrl());
      await signInThroughPopup(context, frame, email);
      await frame.fill("#question", "Does a gift count toward reserves?");
      await frame.click("#send");
      await frame.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });

      // The token check fails as an overloaded service would (503), once.
      let failures = 0;
      await context.route("**/embed/api/chat/check", async (route) => {
        if (failures++ === 0) await route.fulfill({ status: 503, contentType: "application/json", body: "{}" });
        else await route.continue();
      });
      await page.reload();
      const reloaded = await chatFrame(page, partnerSite.origin);
      await reloaded.waitForSelector("#unavailable", { state: "visible", timeout: 10_000 });
      expect(await reloaded.isVisible("#ended")).toBe(false);
      await screenshot(page, "chat-unavailable-after-reload");
      await reloaded.click("#retry-start");
      await reloaded.waitForSelector("#chat", { state: "visible", timeout: 10_000 });
      await reloaded.waitForSelector(".msg.assistant", { timeout: 10_000 });
      expect(await reloaded.textContent(".msg.user .text")).toBe("Does a gift count toward reserves?");
      expect(failures).toBe(2);
      await context.close();
    },
  );
});

const CITATIONS = [
  {
    id: "fha-1",
    title: "FHA minimum down payment",
    source_type: "fha",
    source_label: "FHA handbook",
    section: "Minimum required investment",
    excerpt: "3.5 percent of the lesser of the sales price or appraised value.",
  },
  {
    id: "acme-1",
    title: "Acme FHA overlay",
    source_type: "tenant_bucket",
    source_key: "acme_overlays",
    source_label: "Acme overlays",
    section: "FHA credit overlay",
    excerpt: "Acme requires a 620 score for FHA purchases.",
  },
];

describe("hosted chat: header, answers and composer", () => {
  it(
    "shows the loan and the user in the header, streams with a visible state, and links [n] markers to the cited excerpts",
    { timeout: 90_000 },
    async () => {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const text = "The minimum is 3.5 percent [1], and Acme asks for a 620 score [2].";
      upstreamAnswers([
        { event: { type: "content", content: "The minimum is 3.5 percent [1], " } },
        { waitFor: gate },
        ...answer(text, { citations: CITATIONS, sources: [{ source_type: "fha", label: "FHA" }] }).slice(2),
      ]);
      const { email, launchUrl } = await prepareLaunches(setup.app, {
        name: "Dana Loan Officer",
        loanContext: {
          external_loan_id: "LN-2026-0042",
          program: "fha",
          purpose: "purchase",
          property_state: "TX",
          occupancy: "primary_residence",
        },
      });
      const context = await browser.newContext();
      const page = await context.newPage();
      const frame = await openInPartnerPage(page, partnerSite.origin, await launchUrl());
      await signInThroughPopup(context, frame, email);

      // The header: the loan in words and who is signed in; never the email address.
      await frame.waitForSelector("#context", { state: "visible" });
      const loan = await frame.$$eval("#loan > div", (rows) => rows.map((row) => row.textContent));
      expect(loan).toEqual(["LoanLN-2026-0042", "ProgramFHA", "PurposePurchase", "StateTX"]);
      expect(await frame.textContent("#user")).toBe("Signed in as Dana Loan Officer");
      expect(await frame.content()).not.toContain(email);
      await screenshot(page, "chat-header-loan-context");

      // The question field is named "Question" for assistive technology, and the label takes no room on screen.
      expect(await frame.getByRole("textbox", { name: "Question", exact: true }).count()).toBe(1);
      const labelBox = await frame.evaluate(
        `(() => { const label = document.querySelector("label[for=question]"); return { hidden: label.hidden, width: label.getBoundingClientRect().width }; })()`,
      );
      expect(labelBox).toEqual({ hidden: false, width: 1 });

      // Shift+Enter adds a line; Enter sends.
      await frame.click("#question");
      await frame.type("#question", "Minimum down payment?");
      await frame.press("#question", "Shift+Enter");
      await frame.type("#question", "And the score?");
      expect(await frame.inputValue("#question")).toBe("Minimum down payment?\nAnd the score?");
      expect(await frame.$$(".msg.user")).toHaveLength(0);
      await frame.press("#question", "Enter");

      // While the answer streams: "Answering…" and the send button disabled.
      await frame.waitForSelector("#answering", { state: "visible", timeout: 10_000 });
      expect(await frame.textContent("#answering")).toBe("Answering…");
      expect(await frame.isDisabled("#send")).toBe(true);
      expect(await frame.textContent(".msg.user")).toBe("Minimum down payment?\nAnd the score?");
      await screenshot(page, "chat-answering");
      release();

      const done = await frame.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
      expect(await frame.isHidden("#answering")).toBe(true);
      expect(await frame.isEnabled("#send")).toBe(true);
      expect(await done.$eval(".text", (node) => node.textContent)).toBe(text);
      // Each [n] links to the n-th cited excerpt, listed with its source label and section.
      const markers = await done.$$("a.cite");
      expect(markers).toHaveLength(2);
      const sources = await done.$$eval(".sources li", (items) => items.map((item) => item.textContent));
      expect(sources).toEqual([
        "FHA handbook · Minimum required investment3.5 percent of the lesser of the sales price or appraised value.",
        "Acme overlays · FHA credit overlayAcme requires a 620 score for FHA purchases.",
      ]);
      await markers[1]?.click();
      expect(await frame.evaluate("document.activeElement.textContent")).toContain("Acme overlays");
      await screenshot(page, "chat-answer-with-sources");
      await context.close();
    },
  );

  it(
    "an upstream failure and a lost connection each offer Retry, which sends the question again",
    { timeout: 90_000 },
    async () => {
      upstreamStatus(502);
      const { email, launchUrl } = await prepareLaunches(setup.app);
      const context = await browser.newContext();
      const page = await context.newPage();
      const frame = await openInPartnerPage(page, partnerSite.origin, await launchUrl());
      await signInThroughPopup(context, frame, email);

      await frame.fill("#question", "Is a gift allowed?");
      await frame.press("#question", "Enter");
      const failure = await frame.waitForSelector(".msg.assistant[data-failed='1']", { timeout: 15_000 });
      expect(await failure.$eval(".failure", (node) => node.textContent)).toBe(
        "The assistant could not answer just now.Retry",
      );
      expect(await frame.isEnabled("#send")).toBe(true);
      await screenshot(page, "chat-failure-retry");

      // Retry: the same question again, now answered; the question is not shown twice.
      upstreamAnswers(answer("Yes, from a family member. [1]"));
      await frame.click(".msg.assistant .retry");
      await frame.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
      expect(await frame.$$(".msg.user")).toHaveLength(1);
      expect(await frame.$$(".msg.assistant[data-failed='1']")).toHaveLength(0);
      expect(received.at(-1)?.body.message).toBe("Is a gift allowed?");

      // The network fails: the same offer; Retry continues the same conversation.
      await context.route("**/embed/api/chat/messages", (route) => route.abort("internetdisconnected"));
      await frame.fill("#question", "And from an employer?");
      await frame.press("#question", "Enter");
      const lost = await frame.waitForSelector(".msg.assistant[data-failed='1']", { timeout: 15_000 });
      expect(await lost.$eval(".failure", (node) => node.textContent)).toBe(
        "The connection to the assistant was lost.Retry",
      );
      await screenshot(page, "chat-connection-lost-retry");
      await context.unroute("**/embed/api/chat/messages");
      upstreamAnswers(answer("Yes, an employer may give. [1]"));
      await frame.click(".msg.assistant .retry");
      await frame.waitForSelector(".msg.assistant[data-complete='1'] >> nth=1", { timeout: 15_000 });
      expect(received.at(-1)?.body.message).toBe("And from an employer?");
      expect(received.at(-1)?.body.conversation_id).toBe(received[0]?.body.conversation_id);
      await context.close();
    },
  );
});

/**
 * The page's streams as the server sees them: the socket of each question's stream (a test
 * destroys one, as a dropped network connection would, mid-answer) and each resume request.
 */
function watchStreams(app: TestApp) {
  const questions: Socket[] = [];
  const resumes: string[] = [];
  const listener = (req: IncomingMessage) => {
    if (req.method === "POST" && req.url === "/embed/api/chat/messages") questions.push(req.socket);
    else if (req.method === "GET" && /^\/embed\/api\/chat\/conversations\/[^/]+\/stream$/.test(req.url ?? ""))
      resumes.push(String(req.headers["last-event-id"]));
  };
  app.server.on("request", listener);
  return { questions, resumes, stop: () => app.server.off("request", listener) };
}

/** An upstream answer of `count` parts, paced (under the upstream's idle timeout) so that a test acts mid-answer. */
function pacedParts(count: number, gapMs: number) {
  const parts = Array.from({ length: count }, (_, i) => `Part ${i + 1} of the answer. `);
  upstreamAnswers([
    ...parts.flatMap((content) => [{ event: { type: "content", content } }, { wait: gapMs }]),
    { event: { type: "complete", metadata: { tokens_used: 9 } } },
  ]);
  return parts.join("");
}

const answerShows = (frame: Frame, text: string) =>
  frame.locator(".msg.assistant .text", { hasText: text }).waitFor({ timeout: 15_000 });

/** What the database holds of the conversation: one question, one answer, or more when something was asked twice. */
async function storedMessages(app: TestApp, question: string) {
  const { rows } = await app.t.db.sql.query<{
    role: string;
    status: string;
    content: string;
    metadata: Record<string, unknown>;
  }>(
    "SELECT role, status, content, metadata FROM messages WHERE conversation_id = (SELECT conversation_id FROM messages WHERE content = $1 LIMIT 1) ORDER BY position",
    [question],
  );
  return rows;
}

describe("hosted chat: a dropped answer stream", () => {
  it(
    "resumes by itself, after a cut mid-answer and after a server restart's reconnect: one bubble, the whole answer, stored once, no error",
    { timeout: 90_000 },
    async () => {
      const whole = pacedParts(20, 200);
      const { email, launchUrl } = await prepareLaunches(setup.app);
      const context = await browser.newContext();
      const page = await context.newPage();
      const frame = await openInPartnerPage(page, partnerSite.origin, await launchUrl());
      await signInThroughPopup(context, frame, email);
      const streams = watchStreams(setup.app);
      try {
        await frame.fill("#question", "Walk me through the reserve rules");
        await frame.press("#question", "Enter");
        await answerShows(frame, "Part 3 of");
        // The network drops the page's stream while the answer is still being generated.
        expect(streams.questions).toHaveLength(1);
        streams.questions[0]?.destroy();
        await answerShows(frame, "Part 8 of");
        expect(streams.resumes).toHaveLength(1);
        expect(await frame.isVisible("#answering")).toBe(true);
        // The server restarts: it ends the resumed stream with ": reconnect", and the page resumes again.
        setup.app.answers.sendOffConnections();
        const done = await frame.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
        expect(streams.resumes).toHaveLength(2);
        // Each resume asked for what came after the last frame the page had.
        expect(Number(streams.resumes[1]?.split(".")[1])).toBeGreaterThan(Number(streams.resumes[0]?.split(".")[1]));
        expect(await done.$eval(".text", (node) => node.textContent)).toBe(whole);
        expect(await frame.$$(".msg.assistant")).toHaveLength(1);
        expect(await frame.$$(".msg.user")).toHaveLength(1);
        expect(await frame.$$(".failure")).toHaveLength(0);
        expect(await frame.isHidden("#answering")).toBe(true);
        expect(await frame.isEnabled("#send")).toBe(true);
        await screenshot(page, "chat-answer-resumed");
      } finally {
        streams.stop();
      }
      // The upstream was asked once; the question and the answer are stored once each, the answer whole.
      expect(received).toHaveLength(1);
      expect(await storedMessages(setup.app, "Walk me through the reserve rules")).toEqual([
        expect.objectContaining({ role: "user", content: "Walk me through the reserve rules" }),
        expect.objectContaining({
          role: "assistant",
          status: "complete",
          content: whole,
          metadata: expect.objectContaining({ client_disconnected: true }),
        }),
      ]);
      await context.close();
    },
  );

  it(
    "when resuming fails too, the connection-lost notice offers Retry, which resumes the same answer once the server is reachable",
    { timeout: 90_000 },
    async () => {
      const whole = pacedParts(10, 150);
      const { email, launchUrl } = await prepareLaunches(setup.app);
      const context = await browser.newContext();
      // The page cannot reach the resume route: every try fails as a lost network would. (Set
      // before anything opens: routing while the sign-in popup closes itself can fail.)
      let blocked = 0;
      await context.route("**/embed/api/chat/conversations/*/stream", async (route) => {
        blocked += 1;
        await route.abort("internetdisconnected");
      });
      const page = await context.newPage();
      const frame = await openInPartnerPage(page, partnerSite.origin, await launchUrl());
      await signInThroughPopup(context, frame, email);
      const streams = watchStreams(setup.app);
      try {
        await frame.fill("#question", "Can reserves include retirement accounts?");
        await frame.press("#question", "Enter");
        await answerShows(frame, "Part 2 of");
        expect(streams.questions).toHaveLength(1);
        streams.questions[0]?.destroy();
        const lost = await frame.waitForSelector(".msg.assistant[data-failed='1']", { timeout: 15_000 });
        expect(await lost.$eval(".failure", (node) => node.textContent)).toBe(
          "The connection to the assistant was lost.Retry",
        );
        // A few tries, then the notice; what arrived stays, and the composer is free again.
        expect(blocked).toBeGreaterThan(1);
        expect(await lost.$eval(".text", (node) => node.textContent)).toContain("Part 2 of");
        expect(await frame.isEnabled("#send")).toBe(true);
        await screenshot(page, "chat-resume-failed-retry");

        // Reachable again: Retry resumes the same answer in the same bubble; nothing is asked again.
        await context.unroute("**/embed/api/chat/conversations/*/stream");
        await frame.click(".msg.assistant .retry");
        const done = await frame.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
        expect(await done.$eval(".text", (node) => node.textContent)).toBe(whole);
        expect(await frame.$$(".msg.assistant")).toHaveLength(1);
        expect(await frame.$$(".msg.user")).toHaveLength(1);
        expect(await frame.$$(".failure")).toHaveLength(0);
        expect(streams.questions).toHaveLength(1);
        expect(streams.resumes).toHaveLength(1);
      } finally {
        streams.stop();
      }
      expect(received).toHaveLength(1);
      expect(await storedMessages(setup.app, "Can reserves include retirement accounts?")).toEqual([
        expect.objectContaining({ role: "user", content: "Can reserves include retirement accounts?" }),
        expect.objectContaining({ role: "assistant", status: "complete", content: whole }),
      ]);
      await context.close();
    },
  );
});

describe("hosted chat: the site login popup", () => {
  it(
    "keeps the email after a failure, says so in a sentence, and links to setting or resetting the password",
    { timeout: 90_000 },
    async () => {
      const { email, launchUrl } = await prepareLaunches(setup.app);
      const context = await browser.newContext();
      const page = await context.newPage();
      const frame = await openInPartnerPage(page, partnerSite.origin, await launchUrl());
      await frame.waitForSelector("#login-button", { state: "visible", timeout: 10_000 });
      const [popup] = await Promise.all([context.waitForEvent("page"), frame.click("#login-button")]);
      await popup.waitForSelector("input[name=email]");
      await popup.fill("input[name=email]", email);
      await popup.fill("input[name=password]", "not the password");
      await popup.click("button[type=submit]");
      const alert = await popup.waitForSelector("[role=alert]");
      expect(await alert.textContent()).toMatch(/^[A-Z][^]*\.$/);
      expect(await popup.inputValue("input[name=email]")).toBe(email);
      expect(await popup.inputValue("input[name=password]")).toBe("");
      await screenshot(popup, "chat-popup-sign-in-failed");

      // "Set or reset your password": a new link goes to the account's address; the answer never tells whether one exists.
      const before = await setup.app.t.db.sql.query(
        "SELECT count(*)::int AS n FROM notification_outbox WHERE recipient = $1 AND kind = 'password_setup'",
        [email],
      );
      await popup.click("text=Set or reset your password");
      await popup.waitForSelector("h1:text('Set or reset your password')");
      await screenshot(popup, "chat-popup-reset-request");
      await popup.fill("input[name=email]", email);
      await popup.click("button[type=submit]");
      expect(await (await popup.waitForSelector("#sent")).textContent()).toMatch(
        /^If an account uses .+, we sent it a link to set a new password\./,
      );
      const after = await setup.app.t.db.sql.query(
        "SELECT count(*)::int AS n FROM notification_outbox WHERE recipient = $1 AND kind = 'password_setup'",
        [email],
      );
      expect(after.rows[0].n).toBe(before.rows[0].n + 1);
      await screenshot(popup, "chat-popup-reset-sent");

      // Back to sign in, in the same popup: the sign-in session is still known there, and the old password still works.
      await popup.click("text=Back to sign in");
      await popup.waitForSelector("input[name=email]");
      expect(await popup.isHidden("#no-session")).toBe(true);
      await popup.fill("input[name=email]", email);
      await popup.fill("input[name=password]", CHAT_PASSWORD);
      await popup.click("button[type=submit]");
      await frame.waitForSelector("#chat", { state: "visible", timeout: 10_000 });
      await context.close();
    },
  );

  it(
    "a used or expired setup link says so before asking for a password; after setting one, a way back",
    { timeout: 90_000 },
    async () => {
      const { partner } = await prepareLaunches(setup.app);
      const email = `new-${partner.organizationId.toLowerCase()}@acme.test`;
      await partner.put("/users/lo-2", { email });
      const link = async () => {
        const { rows } = await setup.app.t.db.sql.query(
          "SELECT payload FROM notification_outbox WHERE recipient = $1 AND kind = 'password_setup' ORDER BY created_at DESC LIMIT 1",
          [email],
        );
        return `${setup.app.baseUrl}${setup.app.t.db.secrets.open("notification-link", rows[0].payload.link) as string}`;
      };
      const url = await link();
      const context = await browser.newContext();
      const page = await context.newPage();

      // A live link: the form, and the page does not use the link by checking it.
      await page.goto(url);
      await page.waitForSelector("#password-form", { state: "visible" });
      await page.waitForLoadState("networkidle");
      expect(await page.isHidden("#link-dead")).toBe(true);
      await screenshot(page, "chat-popup-password-setup");
      await page.fill("input[name=password]", "a fine new passphrase");
      await page.click("button[type=submit]");
      await page.waitForSelector("h1:text('Password set')");
      // Opened on its own (from the email): no link to a sign-in form that has no sign-in session
      // (it could only refuse the right password), no button that would close nothing: the way back, said.
      expect(await page.$$("a[href='/site/login']")).toHaveLength(0);
      expect(await page.textContent("#next")).toBe(
        "Go back to the assistant's sign-in window and sign in there with your new password. If you closed it, open the assistant again from your loan file.",
      );
      expect(await page.isHidden("#return")).toBe(true);
      await screenshot(page, "chat-popup-password-set");

      // The same link again: dead, said before any password is typed.
      await page.goto("about:blank");
      await page.goto(url);
      await page.waitForSelector("#link-dead", { state: "visible", timeout: 10_000 });
      expect(await page.isHidden("#password-form")).toBe(true);
      expect(await page.textContent("#link-dead")).toBe(
        "This password link has expired or was already used. Ask for a new link.",
      );
      await screenshot(page, "chat-popup-link-used");

      // Opened from the chat's window: "Return to the chat" closes it.
      await requestPasswordSetup(setup.app.t.db, { email, address: "192.0.2.90" });
      const fresh = await link();
      const opener = await context.newPage();
      await opener.goto(`${setup.app.baseUrl}/site/login`);
      const [popup] = await Promise.all([
        context.waitForEvent("page"),
        opener.evaluate(`void window.open(${JSON.stringify(fresh)}, "setup", "popup")`),
      ]);
      await popup.waitForSelector("#password-form", { state: "visible" });
      await popup.fill("input[name=password]", "another fine passphrase");
      await popup.click("button[type=submit]");
      await popup.waitForSelector("#return", { state: "visible" });
      expect(await popup.isHidden("#next")).toBe(true);
      await screenshot(popup, "chat-popup-return-to-chat");
      // The click closes the page it happens in: playwright may then report the click itself as
      // cut short ("Target page closed"). That is the expected outcome; any other failure is not.
      const closed = popup.waitForEvent("close");
      await popup.click("#return").catch((error: unknown) => {
        if (!popup.isClosed()) throw error;
      });
      await closed;
      await context.close();
    },
  );

  it(
    "a password set from the emailed link while the chat's sign-in window is open: that window says so and takes it; the sign-in page opened alone shows no form",
    { timeout: 90_000 },
    async () => {
      const { email, launchUrl } = await prepareLaunches(setup.app);
      const context = await browser.newContext();
      const page = await context.newPage();
      const frame = await openInPartnerPage(page, partnerSite.origin, await launchUrl());
      await frame.waitForSelector("#login-button", { state: "visible", timeout: 10_000 });
      const [popup] = await Promise.all([context.waitForEvent("page"), frame.click("#login-button")]);
      // Forgot the password: a link is asked for from the sign-in window, which then goes back to its form.
      await popup.click("text=Set or reset your password");
      await popup.fill("input[name=email]", email);
      await popup.click("button[type=submit]");
      await popup.waitForSelector("#sent");
      await popup.click("text=Back to sign in");
      await popup.waitForSelector("input[name=password]", { state: "visible" });

      // The emailed link, opened in a tab of its own: the password is set there.
      const { rows } = await setup.app.t.db.sql.query(
        "SELECT payload FROM notification_outbox WHERE recipient = $1 AND kind = 'password_setup' ORDER BY created_at DESC LIMIT 1",
        [email],
      );
      const tab = await context.newPage();
      await tab.goto(
        `${setup.app.baseUrl}${setup.app.t.db.secrets.open("notification-link", rows[0].payload.link) as string}`,
      );
      await tab.waitForSelector("#password-form", { state: "visible" });
      await tab.fill("input[name=password]", "a brand new passphrase");
      await tab.click("button[type=submit]");
      await tab.waitForSelector("h1:text('Password set')");
      expect(await tab.isVisible("#next")).toBe(true);

      // The sign-in window says the new password is set; with it, the chat opens.
      await popup.waitForSelector("#password-set", { state: "visible", timeout: 5_000 });
      await screenshot(popup, "chat-popup-password-set-elsewhere");
      await popup.fill("input[name=email]", email);
      await popup.fill("input[name=password]", "a brand new passphrase");
      await popup.click("button[type=submit]");
      await frame.waitForSelector("#chat", { state: "visible", timeout: 10_000 });

      // The sign-in page opened on its own: why it cannot sign in from here, and no form that would refuse the right password.
      const alone = await context.newPage();
      await alone.goto(`${setup.app.baseUrl}/site/login`);
      await alone.waitForSelector("#no-session", { state: "visible" });
      expect(await alone.textContent("#no-session")).toBe(
        "This page signs you in to the assistant only when the assistant opens it. To sign in, open the assistant again from your loan file.",
      );
      expect(await alone.isHidden("form")).toBe(true);
      await screenshot(alone, "site-login-without-session");
      await context.close();
    },
  );
});
