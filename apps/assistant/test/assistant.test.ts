import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@mga/core/testing";
import { HttpChatUpstream, type UpstreamEvent } from "@mga/core/conversations";
import { type LocalAssistant, startLocalAssistant } from "../src/index";

/** The local assistant through the real upstream client: retrieval, source filtering, citations. */
let t: TestDatabase;
let assistant: LocalAssistant;

beforeAll(async () => {
  t = await createTestDatabase();
  assistant = await startLocalAssistant({ databaseUrl: t.url, token: "local-secret", wordDelayMs: 0 });
});
afterAll(async () => {
  await assistant.close();
  await t.drop();
});

async function ask(
  message: string,
  sources: { agency_source_types?: string[]; tenant_source_keys?: string[]; shared_source_types?: string[] },
  token = "local-secret",
  loanContext?: { external_loan_id: string; program?: string },
) {
  const upstream = new HttpChatUpstream({ url: assistant.url, token });
  const events: UpstreamEvent[] = [];
  for await (const event of upstream.stream({
    requestId: "req_t",
    conversationId: "conv_t",
    message,
    history: [],
    sources: { agency_source_types: [], tenant_source_keys: [], shared_source_types: [], ...sources },
    loanContext,
  })) {
    events.push(event);
  }
  return events;
}

describe("local assistant", () => {
  it("answers the FHA down payment question from the FHA excerpt, with citations", async () => {
    const events = await ask("What is the minimum down payment for an FHA loan?", { agency_source_types: ["fha", "fannie_mae"] });
    const final = events.find((event) => event.type === "content_postprocessed");
    expect(final?.type === "content_postprocessed" && final.content).toMatch(/3\.5 percent/);
    const citations = (final as { citations: Array<{ id: string; source_type: string }> }).citations;
    expect(citations[0]).toMatchObject({ id: "fha-down-payment", source_type: "fha" });
    const streamed = events
      .filter((event) => event.type === "content")
      .map((event) => (event as { content: string }).content)
      .join("");
    expect(streamed).toBe((final as { content: string }).content);
    expect(events.at(-1)).toMatchObject({ type: "complete" });
    expect((events.at(-1) as { tokensUsed: number }).tokensUsed).toBeGreaterThan(0);
  });

  it("retrieves only from the selected sources", async () => {
    const events = await ask("What is the minimum down payment for an FHA loan?", { agency_source_types: ["va"] });
    const final = events.find((event) => event.type === "content_postprocessed") as { citations: Array<{ source_type: string }> };
    expect(final.citations.length).toBeGreaterThan(0);
    expect(final.citations.every((citation) => citation.source_type === "va")).toBe(true);
  });

  it("finds tenant buckets and shared sources by key", async () => {
    const events = await ask("jumbo reserves credit score", { tenant_source_keys: ["acme_jumbo"] });
    const final = events.find((event) => event.type === "content_postprocessed") as { citations: Array<{ source_type: string; source_key?: string }> };
    expect(final.citations[0]).toMatchObject({ source_type: "tenant_bucket", source_key: "acme_jumbo" });
  });

  it("says so when nothing matches", async () => {
    const events = await ask("zebra xylophone", { agency_source_types: ["fha"] });
    const final = events.find((event) => event.type === "content_postprocessed") as { content: string; citations: unknown[] };
    expect(final.content).toMatch(/^I have no excerpt in the selected sources that answers this/);
    expect(final.citations).toEqual([]);
  });

  it("prefers the excerpts of the loan's program", async () => {
    const all = { agency_source_types: ["fha", "fannie_mae", "va"] };
    const first = async (program?: string) => {
      const events = await ask("What is the minimum down payment?", all, "local-secret", program ? { external_loan_id: "LN-1", program } : undefined);
      return (events.find((event) => event.type === "content_postprocessed") as { citations: Array<{ source_type: string }> }).citations[0]?.source_type;
    };
    expect(await first()).toBe("fha");
    expect(await first("va")).toBe("va");
    expect(await first("conventional")).toBe("fannie_mae");
  });

  it("keeps a lender's overlay that answers better ahead of the loan program's agency excerpts", async () => {
    const sources = { agency_source_types: ["fha", "va"], tenant_source_keys: ["acme_overlays"] };
    const events = await ask("What minimum credit score does Acme require on FHA loans?", sources, "local-secret", { external_loan_id: "LN-1", program: "fha" });
    const citations = (events.find((event) => event.type === "content_postprocessed") as { citations: Array<{ source_type: string }> }).citations;
    expect(citations.map((citation) => citation.source_type)).toContain("fha");
    expect(citations[0]?.source_type).toBe("tenant_bucket");
  });

  it("says it has no relevant excerpt rather than answering from a loosely related one", async () => {
    // The VA excerpts share a word with the question, no more: below the relevance threshold.
    const events = await ask("How many months of reserves?", { agency_source_types: ["va"] });
    const final = events.find((event) => event.type === "content_postprocessed") as { content: string; citations: unknown[] };
    expect(final.content).toMatch(/^I have no excerpt in the selected sources that answers this/);
    expect(final.citations).toEqual([]);
    // The same question where a relevant excerpt exists is answered from it.
    const answered = (await ask("How many months of reserves?", { tenant_source_keys: ["acme_jumbo"] })).find((event) => event.type === "content_postprocessed") as {
      citations: Array<{ id: string }>;
    };
    expect(answered.citations[0]?.id).toBe("acme-jumbo");
  });

  it("never mentions API routes in an answer", async () => {
    for (const question of ["zebra xylophone", "What is the minimum down payment for an FHA loan?"]) {
      const final = (await ask(question, { agency_source_types: ["fha"] })).find((event) => event.type === "content_postprocessed") as { content: string };
      expect(final.content).not.toMatch(/\/v1\/|GET |POST /);
    }
  });

  it("refuses a wrong token", async () => {
    await expect(ask("fha", { agency_source_types: ["fha"] }, "wrong")).rejects.toMatchObject({ reason: "http_status" });
  });
});
