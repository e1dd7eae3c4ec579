import type { RetrievedPassage } from "./corpus-store";

/**
 * Builds an extractive answer: the most relevant sentences of each retrieved passage, each
 * followed by its citation marker [n]. No language model: a local installation gets a
 * grounded, cited answer from the sample corpus, not invented text.
 */
export interface ComposedAnswer {
  text: string;
  citations: Array<{ id: string; title: string; source_type: string; source_key?: string; source_label: string; section: string; excerpt: string }>;
  sources: Array<{ source_type: string; source_key?: string; label: string }>;
}

const STOP = new Set(["the", "a", "an", "is", "are", "for", "of", "on", "to", "what", "how", "and", "or", "in", "with", "do", "does", "i", "my", "can", "be", "it"]);

export function composeAnswer(question: string, passages: RetrievedPassage[]): ComposedAnswer {
  if (passages.length === 0) {
    return {
      text: "I have no excerpt in the selected sources that answers this, so I would rather not guess. Try rephrasing the question or asking about a specific guideline.",
      citations: [],
      sources: [],
    };
  }
  const words = new Set(
    question
      .toLowerCase()
      .match(/[a-z0-9]+/g)
      ?.filter((word) => !STOP.has(word)) ?? [],
  );
  const parts = passages.map((passage, index) => {
    const sentences = passage.text.split(/(?<=[.!?])\s+/);
    const scored = sentences.map((sentence, position) => ({
      sentence: sentence.trim(),
      position,
      score: (sentence.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => words.has(word)).length,
    }));
    const best = scored
      .sort((a, b) => b.score - a.score || a.position - b.position)
      .slice(0, index === 0 ? 2 : 1)
      .sort((a, b) => a.position - b.position);
    return `${best.map((item) => item.sentence).join(" ")} [${index + 1}]`;
  });
  const [first, ...rest] = parts;
  const text = [`According to ${passages[0]?.sourceLabel}: ${first}`, ...rest.map((part, i) => `${passages[i + 1]?.sourceLabel} adds: ${part}`)].join("\n\n");
  const sourceKey = (passage: RetrievedPassage) => (passage.kind === "tenant_bucket" ? { source_type: "tenant_bucket", source_key: passage.source } : { source_type: passage.source });
  const seen = new Set<string>();
  return {
    text: `${text}\n\n(Sample data bundled with the local assistant; not authoritative guidance.)`,
    citations: passages.map((passage) => ({
      id: passage.id,
      title: passage.title,
      ...sourceKey(passage),
      source_label: passage.sourceLabel,
      section: passage.section,
      excerpt: passage.text,
    })),
    sources: passages
      .filter((passage) => !seen.has(`${passage.kind}:${passage.source}`) && seen.add(`${passage.kind}:${passage.source}`))
      .map((passage) => ({ ...sourceKey(passage), label: passage.sourceLabel })),
  };
}
