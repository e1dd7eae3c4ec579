/**
 * US states by postal code, to tell which state a question is about: a state's rules are
 * cited only for a question naming the state or a loan whose property is there.
 */
export const STATE_NAMES: Record<string, string> = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  DC: "District of Columbia",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
};

const PATTERNS = Object.entries(STATE_NAMES).map(([code, name]) => ({
  code,
  pattern: new RegExp(`\\b${name.replace(" ", "\\s+")}\\b`, "i"),
}));

/** The states a question names in words ("Texas"), as postal codes. */
export function statesNamedIn(question: string): string[] {
  // "West Virginia" also contains "Virginia": the longer name wins.
  const found = PATTERNS.filter((entry) => entry.pattern.test(question)).map((entry) => entry.code);
  return found.filter(
    (code) => !found.some((other) => other !== code && STATE_NAMES[other]?.endsWith(` ${STATE_NAMES[code]}`)),
  );
}
