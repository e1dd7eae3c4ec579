import MiniSearch from "minisearch";
import { stemmer } from "stemmer";

import { PROGRAM_WORDS } from "./loan-programs";
import { SAMPLE_CORPUS, type SamplePassage } from "./sample-corpus";

/**
 * The sample corpus in a MiniSearch index (BM25 ranking; titles weigh more than bodies),
 * built once in memory: the corpus is small and bundled, so a search is a few microseconds
 * and needs no database. Terms are lower-cased, stripped of stop words and of words every
 * mortgage question shares, and stemmed (Porter), so "limits" finds "limit".
 */
const STOP_WORDS = new Set(
  (
    "a an and are as at be been by can cannot could do does doesn don for from has have how i if in into is isn aren it its me my of on or our so than that the " +
    "their them then there these they this those to up was we what whats when where which who whom why will with won would you your should must may much many " +
    "any some about after before over under more less also get got need needed allow allowed want take put anything long"
  ).split(" "),
);

/** Words every mortgage question shares: they say nothing about which excerpt is relevant. */
const GENERIC_WORDS = new Set(
  "loan loans mortgage mortgages borrower borrowers buyer buyers client clients lender lenders guideline guidelines rule rules require requires required requirement requirements sample handbook guide".split(
    " ",
  ),
);

/**
 * Abbreviations and spellings a loan officer uses for what the guides spell out: a question's
 * word also searches these words ("DTI" finds "debt-to-income ratio", "condo" finds
 * "condominium"). Domain vocabulary, not a list of the sample's wordings.
 */
const SYNONYMS: Record<string, string[]> = {
  dti: ["debt", "income", "ratio"],
  ltv: ["value", "ratio"],
  pmi: ["private", "insurance"],
  mi: ["insurance"],
  mip: ["insurance", "premium"],
  ami: ["median", "income"],
  condo: ["condominium"],
  condos: ["condominium"],
  refi: ["refinance"],
  max: ["maximum"],
  min: ["minimum"],
  remove: ["cancel", "terminate"],
  removed: ["cancel", "terminate"],
};

/**
 * The lender's name ("Acme"): the words every label of the lender's own sources (tenant
 * buckets) shares. Every overlay says it, so like a program's name it tells where to look
 * (the lender's sources are searched anyway), not which excerpt answers.
 */
const LENDER_WORDS: Set<string> = (() => {
  const labels = [
    ...new Set(
      SAMPLE_CORPUS.filter((passage) => passage.kind === "tenant_bucket").map((passage) => passage.sourceLabel),
    ),
  ];
  const sets = labels.map(
    (label) => new Set((label.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word !== "sample")),
  );
  return new Set([...(sets[0] ?? [])].filter((word) => sets.every((set) => set.has(word))));
})();

/** Irregular forms the stemmer does not bring back to their word ("paid" is "pay"). */
const IRREGULAR: Record<string, string> = { paid: "pay", sold: "sell", bought: "buy" };

/** A text's words, lower-cased, without the "'s" or "n't" of a contraction. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).map((word) => {
    const bare = word.replace(/['’][\p{L}]+$/u, "");
    return IRREGULAR[bare] ?? bare;
  });
}

export function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (
    word.length < 2 ||
    STOP_WORDS.has(word) ||
    GENERIC_WORDS.has(word) ||
    PROGRAM_WORDS.has(word) ||
    LENDER_WORDS.has(word)
  )
    return null;
  return stemmer(word);
}

/** Document frequency weighting, as BM25 does: a word found in few excerpts says more. */
function inverseFrequency(documents: number, frequency: number): number {
  return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
}

export interface SearchHit {
  passage: SamplePassage;
  score: number;
  /** The question's (processed) terms this excerpt contains. */
  matchedTerms: string[];
  /** The share of the question's term weight this excerpt matches, 0 to 1. */
  coverage: number;
}

export class CorpusIndex {
  private readonly index = new MiniSearch<SamplePassage>({ fields: ["title", "text"], tokenize: words, processTerm });
  private readonly byId: Map<string, SamplePassage>;
  private readonly frequency = new Map<string, number>();

  constructor(readonly corpus: SamplePassage[] = SAMPLE_CORPUS) {
    this.index.addAll(corpus);
    this.byId = new Map(corpus.map((passage) => [passage.id, passage]));
    for (const passage of corpus) {
      for (const term of new Set(
        words(`${passage.title} ${passage.text}`).flatMap((word) => processTerm(word) ?? []),
      )) {
        this.frequency.set(term, (this.frequency.get(term) ?? 0) + 1);
      }
    }
  }

  /** The question's words as the index sees them: each word's terms, its abbreviation expanded. */
  queryWords(question: string): string[][] {
    const groups = words(question).map((word) => [
      ...new Set([word, ...(SYNONYMS[word] ?? [])].flatMap((term) => processTerm(term) ?? [])),
    ]);
    const seen = new Set<string>();
    return groups.filter((terms) => terms.length > 0 && !seen.has(terms.join(" ")) && seen.add(terms.join(" ")));
  }

  queryTerms(question: string): string[] {
    return [...new Set(this.queryWords(question).flat())];
  }

  /** How much a term tells apart excerpts (0 for a term no excerpt has). */
  weight(term: string): number {
    const frequency = this.frequency.get(term) ?? 0;
    return frequency === 0 ? 0 : inverseFrequency(this.corpus.length, frequency);
  }

  /** Excerpts matching any of the question's terms, among those `include` accepts, best first. */
  search(question: string, include: (passage: SamplePassage) => boolean): SearchHit[] {
    const groups = this.queryWords(question);
    const terms = [...new Set(groups.flat())];
    if (terms.length === 0) return [];
    // Each word of the question weighs what its most telling term weighs; it is matched when
    // any of its terms is ("PMI" is matched by "private mortgage insurance").
    const weights = groups.map((group) => Math.max(...group.map((term) => this.weight(term))));
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const coverage = (matched: string[]) =>
      total === 0
        ? 0
        : groups.reduce(
            (sum, group, i) => sum + (group.some((term) => matched.includes(term)) ? (weights[i] ?? 0) : 0),
            0,
          ) / total;
    return this.index
      .search(terms.join(" "), {
        boost: { title: 1.5 },
        combineWith: "OR",
        // The query is processed above; its terms are already stems.
        tokenize: (text) => text.split(" "),
        processTerm: (term) => term,
        filter: (result) => {
          const passage = this.byId.get(String(result.id));
          return passage !== undefined && include(passage);
        },
      })
      .map((result) => ({
        passage: this.byId.get(String(result.id)) as SamplePassage,
        score: result.score,
        matchedTerms: result.terms,
        coverage: coverage(result.terms),
      }));
  }
}
