/**
 * Loan programs (spec 2.12 `program`) as the assistant sees them: which agency sources are
 * written for each, what to call them in an answer, and which of them a question names. The
 * assistant is an upstream of its own (docs/upstream-protocol.md), so it keeps this
 * knowledge itself rather than importing the service's code.
 */
export const PROGRAM_SOURCES: Record<string, string[]> = {
  conventional: ["fannie_mae", "freddie_mac"],
  fha: ["fha"],
  va: ["va"],
  usda: ["usda"],
};

export const SOURCE_PROGRAM: Record<string, string> = {
  fannie_mae: "conventional",
  freddie_mac: "conventional",
  fha: "fha",
  va: "va",
  usda: "usda",
};

/** An agency source's name in an answer: "VA guidelines are switched off…". */
export const SOURCE_NAMES: Record<string, string> = {
  fannie_mae: "Fannie Mae",
  freddie_mac: "Freddie Mac",
  fha: "FHA",
  va: "VA",
  usda: "USDA",
};

export const PROGRAM_NAMES: Record<string, string> = {
  conventional: "conventional",
  fha: "FHA",
  va: "VA",
  usda: "USDA",
};

/**
 * How a question names a program or an agency: a conventional product names its agency
 * (HomeReady is Fannie Mae's), the program's word names all of its agencies.
 */
const NAMED: Array<{ pattern: RegExp; sources: string[] }> = [
  { pattern: /\bfha\b|\b203\s*\(?k\)?/i, sources: ["fha"] },
  { pattern: /\bva\b|\bveterans?\b|\birrrl\b/i, sources: ["va"] },
  { pattern: /\busda\b|\brural development\b/i, sources: ["usda"] },
  { pattern: /\bfannie\b|\bfnma\b|\bhomeready\b|\bdesktop underwriter\b/i, sources: ["fannie_mae"] },
  {
    pattern: /\bfreddie\b|\bfhlmc\b|\bhome ?possible\b|\bhomeone\b|\bloan product advisor\b/i,
    sources: ["freddie_mac"],
  },
  { pattern: /\bconventional\b|\bconforming\b/i, sources: ["fannie_mae", "freddie_mac"] },
];

/** The agency sources a question names, in the order of NAMED; empty when it names none. */
export function sourcesNamedIn(question: string): string[] {
  const named = NAMED.filter((entry) => entry.pattern.test(question)).flatMap((entry) => entry.sources);
  return [...new Set(named)];
}

/** Words that only name a program or agency: they choose where to search, not what to rank. */
export const PROGRAM_WORDS = new Set([
  "fha",
  "va",
  "usda",
  "fannie",
  "mae",
  "freddie",
  "mac",
  "fnma",
  "fhlmc",
  "conventional",
  "veteran",
  "veterans",
]);
