import { processTerm, type SearchHit } from "./corpus-index";
import { PROGRAM_NAMES, SOURCE_NAMES } from "./loan-programs";

/**
 * Builds an extractive answer: the most relevant sentences of each retrieved excerpt, each
 * followed by its citation marker [n]. No language model: a local installation gets a
 * grounded, cited answer from the sample corpus, not invented text.
 */
export interface ComposedAnswer {
  text: string;
  citations: Array<{
    id: string;
    title: string;
    source_type: string;
    source_key?: string;
    source_label: string;
    section: string;
    excerpt: string;
  }>;
  sources: Array<{ source_type: string; source_key?: string; label: string }>;
}

const SAMPLE_NOTE = "(Sample data bundled with the local assistant; not authoritative guidance.)";

export const NO_EXCERPT =
  "I have no excerpt in the selected sources that answers this, so I would rather not guess. Try rephrasing the question or asking about a specific guideline.";

export function composeAnswer(
  question: string,
  hits: SearchHit[],
  context: { askedAbout?: string | undefined; loanProgram?: string | undefined } = {},
): ComposedAnswer {
  if (hits.length === 0) return { text: NO_EXCERPT, citations: [], sources: [] };
  const words = new Set(question.match(/[\p{L}\p{N}]+/gu)?.flatMap((word) => processTerm(word) ?? []) ?? []);
  const parts = hits.map(({ passage }, index) => {
    const sentences = passage.text.split(/(?<=[.!?])\s+/);
    const scored = sentences.map((sentence, position) => ({
      sentence: sentence.trim(),
      position,
      score: (sentence.match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => words.has(processTerm(word) ?? "")).length,
    }));
    const best = scored
      .sort((a, b) => b.score - a.score || a.position - b.position)
      .slice(0, index === 0 ? 2 : 1)
      .sort((a, b) => a.position - b.position);
    return `${best.map((item) => item.sentence).join(" ")} [${index + 1}]`;
  });
  const label = (index: number) => hits[index]?.passage.sourceLabel;
  const [first, ...rest] = parts;
  const lines = [`According to ${label(0)}: ${first}`, ...rest.map((part, i) => `${label(i + 1)} adds: ${part}`)];
  // The question asks about another program than the loan's: say whose rules these are.
  if (context.askedAbout && context.loanProgram) {
    lines.unshift(
      `This loan is ${PROGRAM_NAMES[context.loanProgram] ?? context.loanProgram}; you asked about ${PROGRAM_NAMES[context.askedAbout] ?? context.askedAbout}, so this answer is from ${PROGRAM_NAMES[context.askedAbout] ?? context.askedAbout} guidelines.`,
    );
  }
  const sourceKey = (passage: SearchHit["passage"]) =>
    passage.kind === "tenant_bucket"
      ? { source_type: "tenant_bucket", source_key: passage.source }
      : { source_type: passage.source };
  const seen = new Set<string>();
  return {
    text: `${lines.join("\n\n")}\n\n${SAMPLE_NOTE}`,
    citations: hits.map(({ passage }) => ({
      id: passage.id,
      title: passage.title,
      ...sourceKey(passage),
      source_label: passage.sourceLabel,
      section: passage.section,
      excerpt: passage.text,
    })),
    sources: hits
      .map(({ passage }) => passage)
      .filter(
        (passage) => !seen.has(`${passage.kind}:${passage.source}`) && seen.add(`${passage.kind}:${passage.source}`),
      )
      .map((passage) => ({ ...sourceKey(passage), label: passage.sourceLabel })),
  };
}

/**
 * The program's guidelines are not among the sources: say which, and why when it is known
 * (switched off for the organization, or only not selected for this question), cite nothing.
 */
export function sourcesUnavailable(missing: string[], enabled: string[] | undefined): ComposedAnswer {
  const names = missing.map((source) => SOURCE_NAMES[source] ?? source);
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  const switchedOff = enabled !== undefined && missing.every((source) => !enabled.includes(source));
  const text = switchedOff
    ? `${list} guidelines are switched off for your organization, so I cannot answer this from them. Your administrator can enable them.`
    : `${list} guidelines are not among the sources selected for this question, so I cannot answer this from them. Select them and ask again.`;
  return { text, citations: [], sources: [] };
}
