import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { HttpChatUpstream, type UpstreamEvent } from "@mga/core/conversations";

import { startLocalAssistant, type LocalAssistant } from "../src/index";

/** The local assistant through the real upstream client: retrieval, source filtering, citations. */
let assistant: LocalAssistant;

beforeAll(async () => {
  assistant = await startLocalAssistant({ token: "local-secret", wordDelayMs: 0 });
});
afterAll(async () => {
  await assistant.close();
});

const ALL_AGENCIES = ["fannie_mae", "freddie_mac", "fha", "va", "usda"];
type Sources = { agency_source_types?: string[]; tenant_source_keys?: string[]; shared_source_types?: string[] };
type Final = { content: string; citations: Array<{ id: string; source_type: string; source_key?: string }> };

async function ask(
  message: string,
  sources: Sources,
  token = "local-secret",
  loanContext?: { external_loan_id: string; program?: string; property_state?: string },
  enabledAgencySources?: string[],
) {
  const upstream = new HttpChatUpstream({ url: assistant.url, token });
  const events: UpstreamEvent[] = [];
  for await (const event of upstream.stream({
    requestId: "req_t",
    conversationId: "conv_t",
    message,
    history: [],
    sources: { agency_source_types: [], tenant_source_keys: [], shared_source_types: [], ...sources },
    enabledAgencySources,
    loanContext,
  })) {
    events.push(event);
  }
  return events;
}

async function final(
  message: string,
  sources: Sources,
  loan?: { program?: string; property_state?: string },
  enabled?: string[],
): Promise<Final> {
  const events = await ask(
    message,
    sources,
    "local-secret",
    loan ? { external_loan_id: "LN-1", ...loan } : undefined,
    enabled,
  );
  return events.find((event) => event.type === "content_postprocessed") as unknown as Final;
}

const ids = (answer: Final) => answer.citations.map((citation) => citation.id);

describe("local assistant", () => {
  it("answers the FHA down payment question from the FHA excerpt, with citations", async () => {
    const events = await ask("What is the minimum down payment for an FHA loan?", {
      agency_source_types: ["fha", "fannie_mae"],
    });
    const answer = events.find((event) => event.type === "content_postprocessed") as unknown as Final;
    expect(answer.content).toMatch(/3\.5 percent/);
    expect(answer.citations[0]).toMatchObject({ id: "fha-down-payment", source_type: "fha" });
    const streamed = events
      .filter((event) => event.type === "content")
      .map((event) => (event as { content: string }).content)
      .join("");
    expect(streamed).toBe(answer.content);
    expect(events.at(-1)).toMatchObject({ type: "complete" });
    expect((events.at(-1) as { tokensUsed: number }).tokensUsed).toBeGreaterThan(0);
  });

  it("retrieves only from the selected sources", async () => {
    const answer = await final("What is the minimum down payment?", { agency_source_types: ["va"] });
    expect(answer.citations.length).toBeGreaterThan(0);
    expect(answer.citations.every((citation) => citation.source_type === "va")).toBe(true);
  });

  it("finds tenant buckets and shared sources by key", async () => {
    const answer = await final("jumbo reserves credit score", { tenant_source_keys: ["acme_jumbo"] });
    expect(answer.citations[0]).toMatchObject({ source_type: "tenant_bucket", source_key: "acme_jumbo" });
  });

  it("says so when nothing matches", async () => {
    const answer = await final("zebra xylophone", { agency_source_types: ["fha"] });
    expect(answer.content).toMatch(/^I have no excerpt in the selected sources that answers this/);
    expect(answer.citations).toEqual([]);
  });

  it("answers from the loan program's agency source, not another program's (a USDA loan's income limit)", async () => {
    const answer = await final(
      "What is the income limit?",
      { agency_source_types: ALL_AGENCIES, tenant_source_keys: ["acme_overlays"] },
      { program: "usda" },
    );
    expect(ids(answer)).toEqual(["usda-income-limits"]);
    expect(answer.content).toMatch(/115 percent of the area median income/);
  });

  it("does not pad an answer with unrelated excerpts (no Texas rule in an FHA gift answer)", async () => {
    const answer = await final(
      "Can the down payment be a gift from a friend?",
      {
        agency_source_types: ALL_AGENCIES,
        tenant_source_keys: ["acme_overlays"],
        shared_source_types: ["state_regulations"],
      },
      { program: "fha" },
    );
    expect(ids(answer)[0]).toBe("fha-gift-funds");
    expect(answer.citations.every((citation) => ["fha", "tenant_bucket"].includes(citation.source_type))).toBe(true);
  });

  it("cites a state's rule for a loan in that state only", async () => {
    const sources = { agency_source_types: ALL_AGENCIES, shared_source_types: ["state_regulations"] };
    expect(
      ids(await final("How much cash can they take out?", sources, { program: "conventional", property_state: "TX" })),
    ).toContain("state-texas-cash-out");
    expect(
      ids(await final("How much cash can they take out?", sources, { program: "conventional", property_state: "OH" })),
    ).not.toContain("state-texas-cash-out");
  });

  it("answers a VA question on a VA loan, with the lender's VA overlay", async () => {
    const answer = await final(
      "What is the maximum DTI for a VA loan?",
      { agency_source_types: ALL_AGENCIES, tenant_source_keys: ["acme_overlays"] },
      { program: "va" },
      ALL_AGENCIES,
    );
    expect(ids(answer)).toEqual(["va-dti", "acme-va-overlay"]);
  });

  it("answers from the program a question names, saying it is not the loan's", async () => {
    const answer = await final(
      "What is the maximum DTI for a VA loan?",
      { agency_source_types: ALL_AGENCIES },
      { program: "fha" },
      ALL_AGENCIES,
    );
    expect(ids(answer)).toEqual(["va-dti"]);
    expect(answer.content).toMatch(/^This loan is FHA; you asked about VA/);
  });

  it("keeps the program the previous question named for a follow-up that names none", async () => {
    const upstream = new HttpChatUpstream({ url: assistant.url, token: "local-secret" });
    const events: UpstreamEvent[] = [];
    for await (const event of upstream.stream({
      requestId: "req_t",
      conversationId: "conv_t",
      message: "Can the down payment be a gift?",
      history: [
        { role: "user", content: "What is the minimum down payment for an FHA loan?" },
        { role: "assistant", content: "According to FHA (sample): … 3.5 percent … [1]" },
      ],
      sources: {
        agency_source_types: ["fannie_mae", "freddie_mac", "fha"],
        tenant_source_keys: [],
        shared_source_types: [],
      },
    })) {
      events.push(event);
    }
    const answer = events.find((event) => event.type === "content_postprocessed") as unknown as Final;
    expect(ids(answer)).toEqual(["fha-gift-funds"]);
  });

  it("says when the program's guidelines are switched off for the organization, and cites nothing", async () => {
    const enabled = ["fannie_mae", "freddie_mac", "fha", "va"];
    const answer = await final(
      "What is the income limit?",
      { agency_source_types: enabled, tenant_source_keys: ["acme_overlays"] },
      { program: "usda" },
      enabled,
    );
    expect(answer.content).toBe(
      "USDA guidelines are switched off for your organization, so I cannot answer this from them. Your administrator can enable them.",
    );
    expect(answer.citations).toEqual([]);
    // Enabled but not selected for this question (an API message's search_options): said as such.
    const unselected = await final(
      "What is the USDA income limit?",
      { agency_source_types: ["fha"] },
      undefined,
      ALL_AGENCIES,
    );
    expect(unselected.content).toMatch(/^USDA guidelines are not among the sources selected for this question/);
    expect(unselected.citations).toEqual([]);
  });

  it("keeps a lender's overlay that answers better ahead of the loan program's agency excerpt", async () => {
    const sources = { agency_source_types: ["fha", "va"], tenant_source_keys: ["acme_overlays"] };
    const answer = await final("What minimum credit score does Acme require on FHA loans?", sources, {
      program: "fha",
    });
    expect(answer.citations.map((citation) => citation.source_type)).toEqual(["tenant_bucket", "fha"]);
  });

  it("says it has no relevant excerpt rather than answering from a loosely related one", async () => {
    // FHA excerpts mention insurance, but none is about flood insurance.
    const answer = await final(
      "What flood insurance coverage is needed?",
      { agency_source_types: ["fha"] },
      { program: "fha" },
    );
    expect(answer.content).toMatch(/^I have no excerpt in the selected sources that answers this/);
    expect(answer.citations).toEqual([]);
    // A question where a relevant excerpt exists is answered from it.
    expect(ids(await final("How many months of reserves?", { tenant_source_keys: ["acme_jumbo"] }))[0]).toBe(
      "acme-jumbo",
    );
  });

  it("never mentions API routes in an answer", async () => {
    for (const question of [
      "zebra xylophone",
      "What is the minimum down payment for an FHA loan?",
      "What is the USDA income limit?",
    ]) {
      const answer = await final(question, { agency_source_types: ["fha"] }, undefined, ["fha"]);
      expect(answer.content).not.toMatch(/\/v1\/|GET |POST /);
    }
  });

  it("refuses a wrong token", async () => {
    await expect(ask("fha", { agency_source_types: ["fha"] }, "wrong")).rejects.toMatchObject({
      reason: "http_status",
    });
  });
});
