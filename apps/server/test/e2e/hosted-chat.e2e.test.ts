import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser";
import { chatFrame, openInPartnerPage, prepareLaunches, screenshot, signInThroughPopup, startPartnerSite } from "../support/hosted-chat";
import { answer, received, upstreamAnswers, useAppWithMockedUpstream } from "../support/upstream-mock";

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
  it("reloading the partner page keeps the session and the conversation, and the next question continues it", { timeout: 90_000 }, async () => {
    upstreamAnswers((call) => answer(call.body.history.length === 0 ? "First answer about reserves. [1]" : "Second answer, same conversation. [1]"));
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
      throw new Error(`after reload: status=${await reloaded.textContent("#status")} ended=${await reloaded.isVisible("#ended")}: ${String(error)}`);
    });
    // The conversation so far is shown again.
    await reloaded.waitForSelector(".msg.assistant", { timeout: 10_000 });
    const shown = await reloaded.$$eval(".msg", (nodes) => nodes.map((n) => `${n.className}: ${n.querySelector(".text")?.textContent ?? n.textContent}`));
    expect(shown).toEqual([expect.stringMatching(/^msg user: How many months of reserves\?$/), expect.stringMatching(/^msg assistant.*: First answer about reserves\. \[1\]/)]);
    await screenshot(page, "chat-resumed-after-reload");

    await reloaded.fill("#question", "And for a second home?");
    await reloaded.click("#send");
    await reloaded.waitForSelector(".msg.assistant[data-complete='1']", { timeout: 15_000 });
    // The upstream got the earlier exchange as history, and the database holds one conversation of four messages.
    expect(received.at(-1)?.body.history.map((m: { content: string }) => m.content)).toEqual(["How many months of reserves?", "First answer about reserves. [1]"]);
    const { rows } = await setup.app.t.db.pool.query<{ conversation_id: string }>(
      "SELECT conversation_id FROM messages WHERE content IN ('How many months of reserves?', 'And for a second home?')",
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]?.conversation_id).toBe(rows[1]?.conversation_id);
    await context.close();
  });
});
