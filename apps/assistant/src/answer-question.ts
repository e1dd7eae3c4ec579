import { composeAnswer, sourcesUnavailable, type ComposedAnswer } from "./compose-answer";
import { CorpusIndex, type SearchHit } from "./corpus-index";
import { PROGRAM_SOURCES, SOURCE_PROGRAM, sourcesNamedIn } from "./loan-programs";
import type { SamplePassage } from "./sample-corpus";
import { statesNamedIn } from "./us-states";

/** What the upstream protocol gives the assistant for one question (docs/upstream-protocol.md). */
export interface Question {
  message: string;
  sources: { agency_source_types: string[]; tenant_source_keys: string[]; shared_source_types: string[] };
  /** The tenant's enabled agency sources, when the API sends them. */
  enabledAgencySources?: string[] | undefined;
  /** The hosted chat's loan program (spec 2.12), when there is one. */
  program?: string | undefined;
  /** The hosted chat's loan property state (spec 2.12, a postal code), when there is one. */
  propertyState?: string | undefined;
  /** The conversation so far, oldest first: a follow-up keeps the program its question named. */
  history?: Array<{ role: "user" | "assistant"; content: string }> | undefined;
}

/**
 * Which excerpts an answer cites. The best one must score MIN_SCORE (BM25) and match
 * MIN_COVERAGE of the question's weight (a question about flood insurance is not answered
 * from an excerpt that only says "insurance"); each other one must match as much of the
 * question too, and score RELATIVE_SCORE of the best. One excerpt per source: each source says
 * its part (the agency's rule, the lender's overlay, a state's rule), and a source's other
 * excerpts on the same subject (its reserves and its investment properties) are not padding
 * the answer. At most MAX_CITATIONS. Chosen with the evaluation (test/answer-evaluation.test.ts).
 */
export interface Relevance {
  maxCitations: number;
  minScore: number;
  minCoverage: number;
  relativeScore: number;
}
export const RELEVANCE: Relevance = { maxCitations: 3, minScore: 3, minCoverage: 0.45, relativeScore: 0.15 };

const defaultIndex = new CorpusIndex();

/**
 * Answers one question: decides where to search (the loan's program, or the program the
 * question names), says so when that program's guidelines are not available, searches the
 * selected sources there, keeps the excerpts that answer and composes the cited answer.
 */
export function answerQuestion(question: Question, index: CorpusIndex = defaultIndex): ComposedAnswer {
  const scope = searchScope(question);
  if (scope.unavailable.length > 0 && scope.agencySources.length === 0) {
    return sourcesUnavailable(scope.unavailable, question.enabledAgencySources);
  }
  const hits = relevant(index.search(question.message, scope.include));
  return composeAnswer(question.message, hits, { askedAbout: scope.askedAbout, loanProgram: question.program });
}

interface SearchScope {
  /** The agency sources searched. */
  agencySources: string[];
  /** Agency sources the question needs that the selection does not have. */
  unavailable: string[];
  /** The program the question names when it is not the loan's, for the answer to say so. */
  askedAbout?: string | undefined;
  include: (passage: SamplePassage) => boolean;
}

/**
 * With a program (the one the question names, else the one the previous question named, else
 * the loan's), only that program's agency sources are searched, with the lender's overlays and shared sources that apply to it;
 * without one, every selected source. A state's rules are searched only for a question
 * naming the state, or else for a loan whose property is there.
 */
export function searchScope(question: Question): SearchScope {
  const { sources } = question;
  const selectedAgency = new Set(sources.agency_source_types);
  // "Can the down payment be a gift?" after "… for an FHA loan?" is still about FHA.
  const previous = question.history?.findLast((message) => message.role === "user");
  const asked = sourcesNamedIn(question.message);
  const named = asked.length > 0 ? asked : previous ? sourcesNamedIn(previous.content) : [];
  const targets = named.length > 0 ? named : (PROGRAM_SOURCES[question.program ?? ""] ?? []);
  const agencySources =
    targets.length > 0 ? targets.filter((source) => selectedAgency.has(source)) : [...selectedAgency];
  const programs = new Set(targets.map((source) => SOURCE_PROGRAM[source]));
  const askedProgram = named.length > 0 ? SOURCE_PROGRAM[named[0] as string] : undefined;
  const namedStates = statesNamedIn(question.message);
  const states = new Set(namedStates.length > 0 ? namedStates : question.propertyState ? [question.propertyState] : []);
  const include = (passage: SamplePassage) => {
    if (passage.kind === "agency") return agencySources.includes(passage.source);
    const selected =
      passage.kind === "tenant_bucket"
        ? sources.tenant_source_keys.includes(passage.source)
        : sources.shared_source_types.includes(passage.source);
    const forProgram =
      programs.size === 0 ||
      passage.programs === undefined ||
      passage.programs.some((program) => programs.has(program));
    const forState = passage.states === undefined || passage.states.some((state) => states.has(state));
    return selected && forProgram && forState;
  };
  return {
    agencySources,
    unavailable: targets.filter((source) => !selectedAgency.has(source)),
    askedAbout:
      question.program && askedProgram && askedProgram !== question.program && programs.size === 1
        ? askedProgram
        : undefined,
    include,
  };
}

/** The excerpts worth citing: relevant on their own, and close to the best one. */
export function relevant(hits: SearchHit[], rules: Relevance = RELEVANCE): SearchHit[] {
  const best = hits[0];
  if (!best || best.score < rules.minScore || best.coverage < rules.minCoverage) return [];
  const sources = new Set<string>();
  return hits
    .filter((hit) => hit.coverage >= rules.minCoverage && hit.score >= best.score * rules.relativeScore)
    .filter(
      (hit) =>
        !sources.has(`${hit.passage.kind}:${hit.passage.source}`) &&
        sources.add(`${hit.passage.kind}:${hit.passage.source}`),
    )
    .slice(0, rules.maxCitations);
}
