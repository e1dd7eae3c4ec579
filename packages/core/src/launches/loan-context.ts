/**
 * The loan context of a launch (spec 2.12): its allowed values, defined once (the API's
 * schema validates with them), their names in words (the hosted chat's header), and the
 * subset the upstream may see with a question.
 */
export const LOAN_PROGRAMS = ["conventional", "fha", "va", "usda", "other"] as const;
export const LOAN_PURPOSES = [
  "purchase",
  "rate_term_refinance",
  "cash_out_refinance",
  "construction",
  "other",
] as const;
export const OCCUPANCIES = ["primary_residence", "second_home", "investment", "other"] as const;
export const PROPERTY_TYPES = [
  "single_family",
  "condominium",
  "townhouse",
  "manufactured_home",
  "two_to_four_unit",
  "other",
] as const;
export const MILESTONES = [
  "application",
  "processing",
  "underwriting",
  "approved",
  "clear_to_close",
  "other",
  "closed",
] as const;

export type LoanProgram = (typeof LOAN_PROGRAMS)[number];
export type LoanPurpose = (typeof LOAN_PURPOSES)[number];

export const LOAN_PROGRAM_NAMES: Record<LoanProgram, string> = {
  conventional: "Conventional",
  fha: "FHA",
  va: "VA",
  usda: "USDA",
  other: "Other program",
};
export const LOAN_PURPOSE_NAMES: Record<LoanPurpose, string> = {
  purchase: "Purchase",
  rate_term_refinance: "Rate and term refinance",
  cash_out_refinance: "Cash-out refinance",
  construction: "Construction",
  other: "Other purpose",
};

/**
 * The spec 2.12 fields, the only ones ever sent upstream. The launch already rejected
 * anything else; this list keeps a stored context from an older version, or a future field,
 * from leaking there unreviewed.
 */
export const LOAN_CONTEXT_FIELDS = [
  "external_loan_id",
  "program",
  "purpose",
  "occupancy",
  "property_type",
  "property_state",
  "units",
  "milestone",
  "application_date",
] as const;

export type UpstreamLoanContext = Partial<Record<(typeof LOAN_CONTEXT_FIELDS)[number], string | number>>;

/** The allowed fields of a stored loan context, each a string or a number; nothing else. */
export function upstreamLoanContext(stored: Record<string, unknown>): UpstreamLoanContext {
  const picked: UpstreamLoanContext = {};
  for (const field of LOAN_CONTEXT_FIELDS) {
    const value = stored[field];
    if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) picked[field] = value;
  }
  return picked;
}

/** The loan as the loan officer knows it, in words: "LN-1", "FHA", "Purchase", "TX". */
export interface LoanSummary {
  externalLoanId: string;
  program?: string;
  purpose?: string;
  propertyState?: string;
}

export function describeLoan(stored: Record<string, unknown>): LoanSummary {
  const nameOf = <K extends string>(names: Record<K, string>, value: unknown) =>
    typeof value === "string" && value in names ? names[value as K] : undefined;
  const program = nameOf(LOAN_PROGRAM_NAMES, stored.program);
  const purpose = nameOf(LOAN_PURPOSE_NAMES, stored.purpose);
  const state =
    typeof stored.property_state === "string" && /^[A-Z]{2}$/.test(stored.property_state)
      ? stored.property_state
      : undefined;
  return {
    externalLoanId: String(stored.external_loan_id ?? ""),
    ...(program ? { program } : {}),
    ...(purpose ? { purpose } : {}),
    ...(state ? { propertyState: state } : {}),
  };
}
