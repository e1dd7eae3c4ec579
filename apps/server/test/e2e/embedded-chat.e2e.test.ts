import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser } from "../support/browser";
import {
  openInPartnerPage as openInPartnerPageAt,
  prepareLaunches,
  screenshot,
  signInThroughPopup,
  startPartnerSite,
} from "../support/hosted-chat";
import { answer, received, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * The whole launch in a real browser: a partner page on one origin (localhost) embeds the
 * launch URL, served from another (127.0.0.1), in an iframe; the user signs in through the
 * popup, asks a question and sees the streamed answer; a same-day relaunch needs no
 * sign-in; a consumed fragment is refused when replayed.
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

const prepare = () => prepareLaunches(setup.app);
const openInPartnerPage = (page: Page, launchUrl: string) => openInPartnerPageAt(page, partnerSite.origin, launchUrl);

describe("embedded chat in a partner's page", () => {
  it(
    "signs in through the popup, chats with a streamed answer, relaunches without a prompt, and refuses a replayed fragment",
    { timeout: 90_000 },
    async () => {
      upstreamAnswers(answer("FHA requires a minimum down payment of 3.5 percent. [1]"));
      const { email, launchUrl } = await prepare();
      const context = await browser.newContext();
      const page = await context.newPage();
      const consoleLines: string[] = [];
      page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
      page.on("pageerror", (e) => consoleLines.push(`pageerror: ${e.message}`));
      const firstUrl = await launchUrl();
      const frame = await openInPartnerPage(page, firstUrl);

      // The code is consumed and removed from the address; sign-in is required.
      await frame.waitForSelector("#login-button", { state: "visible" });
      expect(frame.url()).not.toContain("#code=");
      const [popup] = await Promise.all([context.waitForEvent("page"), frame.click("#login-button")]);
      await popup.waitForSelector("input[name=email]");
      await popup.fill("input[name=email]", email);
      await popup.fill("input[name=password]", "wrong password!");
      await popup.click("button[type=submit]");
      await popup.waitForSelector("[role=alert]");
      await popup.fill("input[name=email]", email);
      await popup.fill("input[name=password]", "correct horse battery");
      await popup.click("button[type=submit]");
      await popup.waitForEvent("close", { timeout: 10_000 });

      // Back in the iframe: the chat opens; the answer streams in.
      await frame.waitForSelector("#chat", { state: "visible", timeout: 10_000 }).catch(async (error: unknown) => {
        const state = await setup.app.t.db.sql.query(
          "SELECT (SELECT count(*) FROM chat_grants)::int AS grants, (SELECT json_agg(json_build_object('grant', grant_id, 'token', chat_token_id)) FROM embed_sessions) AS sessions",
        );
        throw new Error(
          `after login: status=${await frame.textContent("#status")} ended=${await frame.isVisible("#ended")} db=${JSON.stringify(state.rows[0])} console=${consoleLines.join(" | ")} logs=${setup.app.logs
            .filter((l) => l.includes("/site/") || l.includes("/embed/"))
            .slice(-8)
            .join(" | ")}: ${String(error)}`,
        );
      });
      await frame.fill("#question", "What is the minimum down payment for an FHA loan?");
      await frame.click("#send");
      const answerBubble = await frame.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
      expect(await answerBubble.textContent()).toContain("3.5 percent");

      // A same-day relaunch: no sign-in prompt.
      const second = await openInPartnerPage(page, await launchUrl());
      await second.waitForSelector("#chat", { state: "visible", timeout: 10_000 }).catch(async (error: unknown) => {
        throw new Error(
          `relaunch: status=${await second.textContent("#status")} login=${await second.isVisible("#login")} ended=${await second.isVisible("#ended")}: ${String(error)}`,
        );
      });
      expect(await second.isVisible("#login")).toBe(false);

      // Replaying the first (consumed) launch URL is refused.
      const replay = await openInPartnerPage(await context.newPage(), firstUrl);
      await replay.waitForSelector("#ended", { state: "visible", timeout: 10_000 });
      await context.close();
    },
  );

  it(
    "a refresh resumes the chat where the browser keeps session storage, and asks for a fresh launch where it cannot",
    { timeout: 60_000 },
    async () => {
      upstreamAnswers(answer("Resumed answer."));
      const { email, launchUrl } = await prepare();
      const context = await browser.newContext();
      // Opened top-level (first-party): session storage is available, so a refresh resumes.
      const page = await context.newPage();
      await page.goto(await launchUrl());
      await signInThroughPopup(context, page, email);
      expect(page.url()).not.toContain("#code=");
      await page.reload();
      await page.waitForSelector("#chat", { state: "visible", timeout: 10_000 });
      await page.fill("#question", "Still there?");
      await page.click("#send");
      expect(
        await (await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 })).textContent(),
      ).toContain("Resumed answer.");
      await context.close();

      // In a browser that denies storage to third-party frames, a reload inside the partner's iframe cannot resume: the page asks for a fresh launch.
      const blocking = await launchBrowser({ thirdPartyStorage: "blocked" });
      try {
        const blockingContext = await blocking.newContext();
        const framed = await blockingContext.newPage();
        const frame = await openInPartnerPage(framed, await launchUrl());
        await frame.waitForSelector("#chat", { state: "visible", timeout: 10_000 });
        await frame.evaluate("location.reload()");
        const reloaded = (await (await framed.waitForSelector("#assistant")).contentFrame()) as Frame;
        await reloaded.waitForSelector("#ended", { state: "visible", timeout: 10_000 });
      } finally {
        await blocking.close();
      }
    },
  );

  it(
    "a launch key over its rate limit: a notice, not an answer, says the organization's assistant is busy without blaming the user, counts down, then sends the question",
    { timeout: 60_000 },
    async () => {
      upstreamAnswers(answer("Sent once the limit had passed."));
      const { email, launchUrl, launcherId } = await prepare();
      const context = await browser.newContext();
      const page = await context.newPage();
      // The page's clock runs as usual, and the test can move it on (the countdown of Retry-After).
      await page.clock.install();
      await page.goto(await launchUrl());
      await signInThroughPopup(context, page, email);
      // The key's budget is spent, in this minute and the next.
      const spend = () =>
        setup.app.t.db.sql.query(
          `INSERT INTO rate_limit_counters (api_key_id, window_start, count)
         SELECT $1, w, 100000 FROM unnest(ARRAY[date_trunc('minute', now()), date_trunc('minute', now()) + interval '1 minute']) AS w
         ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = 100000`,
          [launcherId],
        );
      // Retry-After counts to the end of the key's current minute: in its last seconds the
      // countdown below would have nothing left to count, so the test starts in the next minute.
      const { rows } = await setup.app.t.db.sql.query<{ left: number }>(
        "SELECT 60 - extract(second FROM now())::float AS left",
      );
      if ((rows[0]?.left ?? 60) < 10)
        await new Promise((resolve) => setTimeout(resolve, (rows[0]?.left ?? 0) * 1000 + 200));
      await spend();
      await page.fill("#question", "Is a gift allowed?");
      await page.click("#send");
      const notice = await page.waitForSelector("#limit", { state: "visible", timeout: 10_000 });
      const first = (await page.textContent("#limit-text")) ?? "";
      expect(first).toMatch(
        /^Your organization's assistant is busy right now: everyone at your organization shares one limit, and it is used up for the moment\. Your question will be sent in (1 second|\d+ seconds)\.$/,
      );
      expect(await notice.getAttribute("data-limit")).toBe("shared");
      expect(await notice.getAttribute("role")).toBe("status");
      // Not an answer: nothing was added to the conversation; the question is back in the box; Send waits.
      expect(await page.$$(".msg")).toHaveLength(0);
      expect(await page.inputValue("#question")).toBe("Is a gift allowed?");
      expect(await page.isDisabled("#send")).toBe(true);
      expect(await page.isVisible("#ended")).toBe(false);
      await screenshot(page, "chat-rate-limited-shared");
      // The countdown follows Retry-After.
      const seconds = Number(/in (\d+) second/.exec(first)?.[1]);
      expect(seconds).toBeGreaterThan(2);
      await page.clock.fastForward(2_000);
      await expect
        .poll(async () => Number(/in (\d+) second/.exec((await page.textContent("#limit-text")) ?? "")?.[1]))
        .toBeLessThanOrEqual(seconds - 2);
      expect(received).toHaveLength(0);

      // The limit passes (the counters go): at the end of the countdown the question is sent by itself, once.
      await setup.app.t.db.sql.query("DELETE FROM rate_limit_counters WHERE api_key_id = $1", [launcherId]);
      await page.clock.fastForward(seconds * 1_000);
      const done = await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
      expect(await done.textContent()).toContain("Sent once the limit had passed.");
      expect(await page.$$eval(".msg.user", (nodes) => nodes.map((node) => node.textContent))).toEqual([
        "Is a gift allowed?",
      ]);
      expect(await page.inputValue("#question")).toBe("");
      expect(await page.isHidden("#limit")).toBe(true);
      expect(received.map((call) => call.body.message)).toEqual(["Is a gift allowed?"]);
      await context.close();
    },
  );

  it(
    "a user over his own limit: the notice says it is his limit, in numbers; Don't send keeps the question and sends nothing",
    { timeout: 60_000 },
    async () => {
      upstreamAnswers(answer("Not reached."));
      const { email, launchUrl } = await prepare();
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.clock.install();
      await page.goto(await launchUrl());
      await signInThroughPopup(context, page, email);
      // This user's 20 answers are spent, in this minute and the next.
      await setup.app.t.db.sql.query(
        `INSERT INTO partner_user_rate_limit_counters (partner_user_id, window_start, count)
       SELECT u.id, w, 20 FROM partner_users u, unnest(ARRAY[date_trunc('minute', now()), date_trunc('minute', now()) + interval '1 minute']) AS w
       WHERE u.email = $1
       ON CONFLICT (partner_user_id, window_start) DO UPDATE SET count = 20`,
        [email],
      );
      await page.fill("#question", "Is a gift allowed?");
      await page.click("#send");
      const notice = await page.waitForSelector("#limit", { state: "visible", timeout: 10_000 });
      expect(await page.textContent("#limit-text")).toMatch(
        /^You have reached the limit of 20 questions a minute for each person\. Your question will be sent in (1 second|\d+ seconds)\.$/,
      );
      expect(await notice.getAttribute("data-limit")).toBe("per-user");
      expect(await page.$$(".msg")).toHaveLength(0);
      expect(await page.inputValue("#question")).toBe("Is a gift allowed?");
      await screenshot(page, "chat-rate-limited-per-user");

      await page.click("#limit-cancel");
      expect(await page.isHidden("#limit")).toBe(true);
      expect(await page.isEnabled("#send")).toBe(true);
      await page.clock.fastForward(120_000);
      await page.waitForTimeout(300);
      expect(await page.inputValue("#question")).toBe("Is a gift allowed?");
      expect(await page.$$(".msg")).toHaveLength(0);
      expect(received).toHaveLength(0);
      await context.close();
    },
  );

  it(
    "a used launch link and an expired one each say which happened, and to open the assistant again from the loan file",
    { timeout: 60_000 },
    async () => {
      const { email, launchUrl } = await prepare();
      const context = await browser.newContext();
      const used = await launchUrl();
      const first = await context.newPage();
      await first.goto(used);
      await first.waitForSelector("#login-button", { state: "visible", timeout: 10_000 });
      // The same link in another tab (nothing saved there): refused as used.
      const again = await context.newPage();
      await again.goto(used);
      const usedNotice = await again.waitForSelector("#ended", { state: "visible", timeout: 10_000 });
      expect(await usedNotice.textContent()).toBe(
        "This link to the assistant was already used: each link opens the chat once. Open the assistant again from your loan file to continue.",
      );
      expect(await usedNotice.getAttribute("data-reason")).toBe("used");
      await screenshot(again, "chat-launch-link-used");

      // A link opened after its two minutes.
      const late = await launchUrl();
      await setup.app.t.db.sql.query(
        "UPDATE launches SET expires_at = now() - interval '1 second' WHERE consumed_at IS NULL AND partner_user_id IN (SELECT id FROM partner_users WHERE email = $1)",
        [email],
      );
      const expired = await context.newPage();
      await expired.goto(late);
      const expiredNotice = await expired.waitForSelector("#ended", { state: "visible", timeout: 10_000 });
      expect(await expiredNotice.textContent()).toBe(
        "This link to the assistant expired before the chat opened: a link works for two minutes. Open the assistant again from your loan file.",
      );
      expect(await expiredNotice.getAttribute("data-reason")).toBe("expired");
      await screenshot(expired, "chat-launch-link-expired");
      await context.close();
    },
  );

  it(
    "the sample partner page of the README walkthrough embeds a launch across origins",
    { timeout: 60_000 },
    async () => {
      const { launchUrl } = await prepare();
      const page = await browser.newPage();
      const demo = setup.app.baseUrl.replace("127.0.0.1", "localhost");
      await page.goto(`${demo}/embed/demo-partner?launch=${encodeURIComponent(await launchUrl())}`);
      const frame = await (await page.waitForSelector("iframe")).contentFrame();
      if (!frame) throw new Error("no iframe");
      await frame.waitForSelector("#login-button", { state: "visible", timeout: 10_000 });
      await page.close();
    },
  );
});
