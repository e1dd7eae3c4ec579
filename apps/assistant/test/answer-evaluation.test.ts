import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

import { AGENCY_SOURCE_TYPES } from "@mga/core/sources";

import { answerQuestion } from "../src/answer-question";
import { NO_EXCERPT } from "../src/compose-answer";
import { SAMPLE_CORPUS } from "../src/sample-corpus";

/**
 * The assistant's answers measured: each question of the fixture goes through the real
 * retrieval and composition (answerQuestion, what the server runs), and the excerpts the
 * answer cites are compared with the ones a right answer cites. Micro precision and recall
 * over all questions are printed (they show in `turbo test`) and must both be at least 0.9.
 */
interface Tenant {
  selected: { agency_source_types: string[]; tenant_source_keys: string[]; shared_source_types: string[] };
  enabled: string[];
}
interface Case {
  question: string;
  program?: string;
  tenant: string;
  cites: string[];
  expect?: "switched_off" | "not_selected" | "no_excerpt";
}
const fixture = JSON.parse(readFileSync(new URL("./fixtures/answer-evaluation.json", import.meta.url), "utf8")) as {
  tenants: Record<string, Tenant>;
  questions: Case[];
};

const STATEMENTS = {
  switched_off: /guidelines are switched off for your organization/,
  not_selected: /guidelines are not among the sources selected for this question/,
  no_excerpt: new RegExp(`^${NO_EXCERPT.slice(0, 40)}`),
};

function ask(item: Case) {
  const tenant = fixture.tenants[item.tenant];
  if (!tenant) throw new Error(`unknown tenant ${item.tenant}`);
  return answerQuestion({
    message: item.question,
    sources: tenant.selected,
    enabledAgencySources: tenant.enabled,
    program: item.program,
  });
}

describe("the assistant's answers (evaluation)", () => {
  it("has at least 40 questions about excerpts that exist, over at least 80 excerpts covering every agency source", () => {
    expect(fixture.questions.length).toBeGreaterThanOrEqual(40);
    expect(SAMPLE_CORPUS.length).toBeGreaterThanOrEqual(80);
    const ids = new Set(SAMPLE_CORPUS.map((passage) => passage.id));
    expect(ids.size).toBe(SAMPLE_CORPUS.length);
    expect(fixture.questions.flatMap((item) => item.cites).filter((id) => !ids.has(id))).toEqual([]);
    for (const source of AGENCY_SOURCE_TYPES) {
      expect(
        SAMPLE_CORPUS.filter((passage) => passage.kind === "agency" && passage.source === source).length,
        source,
      ).toBeGreaterThanOrEqual(10);
    }
    expect(SAMPLE_CORPUS.every((passage) => passage.sourceLabel.endsWith("(sample)"))).toBe(true);
  });

  it("cites the right excerpts: precision and recall of cited excerpts at least 0.9", () => {
    let cited = 0;
    let expected = 0;
    let right = 0;
    const misses: string[] = [];
    for (const item of fixture.questions) {
      const ids = ask(item).citations.map((citation) => citation.id);
      const hits = ids.filter((id) => item.cites.includes(id)).length;
      cited += ids.length;
      expected += item.cites.length;
      right += hits;
      if (hits !== ids.length || hits !== item.cites.length)
        misses.push(
          `  ${item.program ?? "-"} | ${item.question} | cited ${ids.join(", ") || "nothing"} | expected ${item.cites.join(", ") || "nothing"}`,
        );
    }
    const precision = cited === 0 ? 1 : right / cited;
    const recall = expected === 0 ? 1 : right / expected;
    console.log(
      `Assistant evaluation: ${fixture.questions.length} questions, ${right} right of ${cited} cited and ${expected} expected excerpts: ` +
        `precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}${misses.length ? `\nAnswers that differ:\n${misses.join("\n")}` : ""}`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  it("says when a program's guidelines are switched off or not selected, or when nothing answers, and cites nothing then", () => {
    for (const item of fixture.questions.filter((entry) => entry.expect)) {
      const answer = ask(item);
      expect(answer.text, item.question).toMatch(STATEMENTS[item.expect as keyof typeof STATEMENTS]);
      expect(answer.citations, item.question).toEqual([]);
    }
  });
});
