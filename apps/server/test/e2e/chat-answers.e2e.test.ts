import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { launchBrowser } from "../support/browser";
import { prepareLaunches, screenshot, signInThroughPopup } from "../support/hosted-chat";
import { answer, received, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

/**
 * The hosted chat's answers in a real browser: Markdown rendered and sanitized, the newest answer
 * followed as it streams, the composer in view on a phone-sized frame, and the Copy, Stop and
 * New chat buttons. The chat is opened top-level here (its own behaviour in a partner's frame is
 * covered by hosted-chat.e2e.test.ts).
 */
const setup = useAppWithMockedUpstream();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function openChat(
  options: { viewport?: { width: number; height: number }; name?: string; permissions?: string[] } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const { email, launchUrl } = await prepareLaunches(setup.app, options.name ? { name: options.name } : {});
  const context = await browser.newContext({ ...(options.viewport ? { viewport: options.viewport } : {}) });
  if (options.permissions)
    await context.grantPermissions(options.permissions, { origin: new URL(setup.app.baseUrl).origin });
  const page = await context.newPage();
  await page.goto(await launchUrl());
  await signInThroughPopup(context, page, email);
  return { context, page };
}

async function ask(page: Page, question: string) {
  await page.fill("#question", question);
  await page.press("#question", "Enter");
}

const CITATION = {
  id: "fha-1",
  title: "FHA reserves",
  source_type: "fha",
  source_label: "FHA handbook",
  section: "Reserves",
  excerpt: "Two months of PITI.",
};

describe("hosted chat: answers as Markdown", () => {
  it(
    "renders the Markdown of an answer, links its [n] markers inside it, and collapses its sources",
    { timeout: 90_000 },
    async () => {
      const text =
        "**Reserves** for a 2-unit purchase:\n\n- two months of PITI [1]\n- verified in `asset statements`\n\n| Units | Months |\n| --- | --- |\n| 2 | 2 |";
      upstreamAnswers(answer(text, { citations: [CITATION] }));
      const { context, page } = await openChat();
      await ask(page, "Reserves for a duplex?");
      const done = await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
      expect(await done.$eval(".text strong", (node) => node.textContent)).toBe("Reserves");
      expect(await done.$$eval(".text li", (items) => items.map((item) => item.textContent))).toEqual([
        "two months of PITI [1]",
        "verified in asset statements",
      ]);
      expect(await done.$eval(".text code", (node) => node.textContent)).toBe("asset statements");
      expect(await done.$$eval(".text td", (cells) => cells.map((cell) => cell.textContent))).toEqual(["2", "2"]);
      // The marker inside the list item links to its source; the sources are collapsed until then.
      expect(await done.$eval(".text li a.cite", (node) => node.getAttribute("aria-label"))).toBe(
        "Source 1: FHA handbook",
      );
      expect(await done.$eval("details.sources", (node) => node.hasAttribute("open"))).toBe(false);
      expect(await done.$eval("details.sources summary", (node) => node.textContent)).toBe("1 source");
      expect(await page.isVisible(".sources li")).toBe(false);
      await screenshot(page, "chat-markdown-answer");
      await page.click(".text li a.cite");
      expect(await done.$eval("details.sources", (node) => node.hasAttribute("open"))).toBe(true);
      expect(await page.evaluate("document.activeElement.textContent")).toContain("FHA handbook");
      await context.close();
    },
  );

  it(
    "an answer carrying HTML or javascript: links runs nothing, streamed or from history",
    { timeout: 90_000 },
    async () => {
      const hostile = [
        "Careful <img src=x onerror=\"window.__xss='img'\"> and <svg onload=\"window.__xss='svg'\"></svg>",
        "[click me](javascript:window.__xss='md-link') and <a href=\"javascript:window.__xss='a'\">this</a>",
        "<script>window.__xss='script'</script><iframe src=\"javascript:parent.__xss='iframe'\"></iframe>",
        '![pixel](x" onerror="window.__xss=\'md-img\') <b style="position:fixed;inset:0" id="question">bold</b> [ok](https://example.test/guide)',
      ].join("\n\n");
      upstreamAnswers(answer(hostile, { citations: [] }));
      const { context, page } = await openChat();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await ask(page, "Show me something");
      const check = async () => {
        const done = await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
        expect(await done.$eval(".text b", (node) => node.textContent)).toBe("bold");
        for (const link of ["click me", "this"])
          await page
            .click(`.msg.assistant .text a:text("${link}")`)
            .catch(() => page.click(`.msg.assistant .text :text("${link}")`));
        await page.waitForTimeout(300);
        expect(await page.evaluate("window.__xss ?? null")).toBeNull();
        const dom = await done.$eval(".text", (node) => ({
          dangerous: node.querySelectorAll("img, svg, script, iframe, [onerror], [onload], [style], [id]").length,
          hrefs: [...node.querySelectorAll("a")].map(
            (a) => `${a.getAttribute("href")} ${a.getAttribute("target")} ${a.getAttribute("rel")}`,
          ),
        }));
        expect(dom.dangerous).toBe(0);
        // Only the https link keeps its address, and it opens in a new tab.
        expect(dom.hrefs.filter((href) => !href.startsWith("null"))).toEqual([
          "https://example.test/guide _blank noopener noreferrer",
        ]);
        // The page's own #question is still the one field.
        expect(await page.$$("#question")).toHaveLength(1);
      };
      await check();
      await screenshot(page, "chat-hostile-answer");
      // The same answer read back from history after a reload.
      await page.reload();
      await page.waitForSelector("#chat", { state: "visible", timeout: 10_000 });
      await check();
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

/** An upstream answer of `count` Markdown paragraphs, paced so that a test acts while it streams. */
function pacedParagraphs(count: number, gapMs: number) {
  const parts = Array.from(
    { length: count },
    (_, i) => `Paragraph ${i + 1} of a long answer about reserves and the documents that verify them.\n\n`,
  );
  upstreamAnswers([
    ...parts.flatMap((content) => [{ event: { type: "content", content } }, { wait: gapMs }]),
    { event: { type: "complete", metadata: { tokens_used: 9 } } },
  ]);
}

// Browser-side code as text: this package's TypeScript has no DOM types.
const messagesScroll = (page: Page) =>
  page.evaluate<{ top: number; bottomGap: number; scrollable: boolean }>(
    `(() => { const node = document.getElementById("messages"); return { top: node.scrollTop, bottomGap: node.scrollHeight - node.scrollTop - node.clientHeight, scrollable: node.scrollHeight > node.clientHeight }; })()`,
  );

describe("hosted chat: layout while answering", () => {
  it(
    "at 390 px the header and composer stay in view, the newest answer is followed (unless scrolled up), nothing scrolls sideways",
    { timeout: 90_000 },
    async () => {
      const { context, page } = await openChat({ viewport: { width: 390, height: 700 }, name: "Dana Loan Officer" });
      // First a wide answer: a long unbroken address, a code block and a wide table.
      const wide = `See https://example.test/${"very-long-path-segment-".repeat(12)}end\n\n\`\`\`\n${"x".repeat(300)}\n\`\`\`\n\n| ${Array.from({ length: 12 }, (_, i) => `Column ${i}`).join(" | ")} |\n|${" --- |".repeat(12)}\n| ${Array.from({ length: 12 }, () => "value").join(" | ")} |`;
      upstreamAnswers(answer(wide, { citations: [] }));
      await ask(page, "Something wide");
      await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });

      pacedParagraphs(30, 120);
      await ask(page, "Walk me through the reserve rules");
      await page.locator(".msg.assistant .text", { hasText: "Paragraph 12 of" }).waitFor({ timeout: 15_000 });
      // Followed: the list is at its end while the answer grows.
      const following = await messagesScroll(page);
      expect(following.scrollable).toBe(true);
      expect(following.bottomGap).toBeLessThan(30);
      // The header (who is signed in, New chat) and the composer are inside the viewport; the page itself does not scroll.
      const layout = await page.evaluate(`(() => {
      const inView = (id) => {
        const box = document.getElementById(id).getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth && box.width > 0;
      };
      const root = document.scrollingElement;
      return {
        composer: inView("composer"),
        question: inView("question"),
        stop: inView("stop"),
        user: inView("user"),
        newChat: inView("new-chat"),
        sideways: root.scrollWidth - root.clientWidth,
        pageScroll: root.scrollHeight - root.clientHeight,
      };
    })()`);
      expect(layout).toEqual({
        composer: true,
        question: true,
        stop: true,
        user: true,
        newChat: true,
        sideways: 0,
        pageScroll: 0,
      });
      expect(await page.textContent("#user")).toBe("Signed in as Dana Loan Officer");
      await screenshot(page, "chat-390px-streaming");

      // Scrolled up to read: the list stays where the reader put it while the answer goes on.
      await page.evaluate(`document.getElementById("messages").scrollTo({ top: 0 })`);
      await page.locator(".msg.assistant .text", { hasText: "Paragraph 20 of" }).waitFor({ timeout: 15_000 });
      expect((await messagesScroll(page)).top).toBe(0);
      await page.waitForSelector(".msg.assistant[data-complete='1'] >> nth=1", { timeout: 20_000 });
      const sideways = await page.evaluate(`(() => {
      const root = document.scrollingElement;
      const widest = Math.max(...[...document.querySelectorAll("#messages .msg")].map((node) => node.getBoundingClientRect().right));
      return { page: root.scrollWidth - root.clientWidth, widest: widest <= window.innerWidth };
    })()`);
      expect(sideways).toEqual({ page: 0, widest: true });
      await context.close();
    },
  );
});

describe("hosted chat: Copy, Stop and New chat", () => {
  it("Copy puts the answer's text on the clipboard", { timeout: 60_000 }, async () => {
    upstreamAnswers(answer("**Two months** of reserves [1].", { citations: [CITATION] }));
    const { context, page } = await openChat({ permissions: ["clipboard-read", "clipboard-write"] });
    await ask(page, "Reserves?");
    const done = await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
    await (await done.$("button.copy"))?.click();
    await page.waitForSelector(".msg.assistant button.copy:text('Copied')");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe("Two months of reserves [1].");
    await context.close();
  });

  it(
    "Stop stops the answer being generated: what arrived stays, marked as stopped, and the chat goes on",
    { timeout: 90_000 },
    async () => {
      pacedParagraphs(40, 150);
      const { context, page } = await openChat();
      const cancels: number[] = [];
      page.on("response", (res) => {
        if (/\/embed\/api\/chat\/conversations\/[^/]+\/cancel$/.test(res.url())) cancels.push(res.status());
      });
      await ask(page, "Tell me everything about reserves");
      await page.locator(".msg.assistant .text", { hasText: "Paragraph 3 of" }).waitFor({ timeout: 15_000 });
      expect(await page.isVisible("#stop")).toBe(true);
      await page.click("#stop");
      const stopped = await page.waitForSelector(".msg.assistant[data-stopped='1']", { timeout: 15_000 });
      expect(await stopped.$eval(".stopped", (node) => node.textContent)).toBe(
        "You stopped this answer; it is incomplete.",
      );
      expect(cancels).toEqual([202]);
      const shown = await stopped.$eval(".text", (node) => node.textContent ?? "");
      expect(shown).toContain("Paragraph 3 of");
      expect(shown).not.toContain("Paragraph 40 of");
      expect(await page.isHidden("#stop")).toBe(true);
      expect(await page.isEnabled("#send")).toBe(true);
      // The server stored it as stopped (cancelled), with what had been generated.
      const { rows } = await setup.app.t.db.sql.query<{ status: string; metadata: { error_code?: string } }>(
        "SELECT status, metadata FROM messages WHERE role = 'assistant' AND conversation_id = (SELECT conversation_id FROM messages WHERE content = $1)",
        ["Tell me everything about reserves"],
      );
      expect(rows).toEqual([
        expect.objectContaining({
          status: "incomplete",
          metadata: expect.objectContaining({ error_code: "cancelled" }),
        }),
      ]);
      await screenshot(page, "chat-answer-stopped");

      // The next question is answered in the same conversation.
      upstreamAnswers(answer("Shorter answer."));
      await ask(page, "In short?");
      await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
      expect(received.at(-1)?.body.history.map((m: { content: string }) => m.content)[0]).toBe(
        "Tell me everything about reserves",
      );
      await context.close();
    },
  );

  it(
    "New chat clears the list and the next question starts a conversation of its own, kept across a reload",
    { timeout: 90_000 },
    async () => {
      upstreamAnswers(answer("First conversation's answer."));
      const { context, page } = await openChat();
      await ask(page, "First question");
      await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
      await page.click("#new-chat");
      expect(await page.$$(".msg")).toHaveLength(0);
      expect(await page.evaluate("document.activeElement.id")).toBe("question");

      upstreamAnswers(answer("Second conversation's answer."));
      await ask(page, "Second question");
      await page.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
      expect(received.at(-1)?.body.history).toEqual([]);
      const { rows } = await setup.app.t.db.sql.query<{ conversation_id: string }>(
        "SELECT conversation_id FROM messages WHERE content IN ('First question', 'Second question') ORDER BY created_at",
      );
      expect(rows).toHaveLength(2);
      expect(rows[0]?.conversation_id).not.toBe(rows[1]?.conversation_id);

      await page.reload();
      await page.waitForSelector(".msg.assistant", { timeout: 10_000 });
      expect(await page.$$eval(".msg.user", (nodes) => nodes.map((node) => node.textContent))).toEqual([
        "Second question",
      ]);
      await context.close();
    },
  );
});
