/**
 * SAMPLE DATA. Short, paraphrased excerpts written for this project so that a local
 * installation answers mortgage questions with real retrieval and real citations. They
 * are illustrative, simplified and possibly out of date: never use them as guidance.
 *
 * Each passage belongs to one source: an agency source type (`agency`), a tenant bucket
 * (`tenant_bucket`, matching the keys in examples/tenant.json) or a shared source type
 * (`shared`).
 */
export interface SamplePassage {
  id: string;
  kind: "agency" | "tenant_bucket" | "shared";
  source: string;
  sourceLabel: string;
  title: string;
  section: string;
  text: string;
}

export const SAMPLE_CORPUS: SamplePassage[] = [
  {
    id: "fha-down-payment",
    kind: "agency",
    source: "fha",
    sourceLabel: "FHA (sample)",
    title: "FHA minimum down payment (minimum required investment)",
    section: "Sample FHA handbook, borrower's minimum down payment",
    text: "For an FHA-insured purchase the borrower's minimum required investment is 3.5 percent of the lesser of the sales price or appraised value when the credit score is 580 or higher. Borrowers with credit scores from 500 to 579 must make a minimum down payment of 10 percent. Borrowers with scores below 500 are not eligible for FHA-insured financing.",
  },
  {
    id: "fha-gift-funds",
    kind: "agency",
    source: "fha",
    sourceLabel: "FHA (sample)",
    title: "FHA gift funds for the down payment",
    section: "Sample FHA handbook, acceptable sources of funds",
    text: "The down payment on an FHA loan may come entirely from a gift. Acceptable donors include family members, employers, close friends with a documented relationship, and governmental agencies. The donor must provide a gift letter stating that no repayment is expected, and the transfer of funds must be documented.",
  },
  {
    id: "fha-mip",
    kind: "agency",
    source: "fha",
    sourceLabel: "FHA (sample)",
    title: "FHA mortgage insurance premium",
    section: "Sample FHA handbook, mortgage insurance premiums",
    text: "FHA loans carry an upfront mortgage insurance premium of 1.75 percent of the base loan amount, which may be financed, and an annual premium paid monthly. For most loans with a down payment of less than 10 percent the annual premium is paid for the life of the loan; with 10 percent or more down it ends after 11 years.",
  },
  {
    id: "fha-dti",
    kind: "agency",
    source: "fha",
    sourceLabel: "FHA (sample)",
    title: "FHA debt-to-income ratios",
    section: "Sample FHA handbook, qualifying ratios",
    text: "Manually underwritten FHA loans generally use a housing ratio of 31 percent and a total debt-to-income ratio of 43 percent. Higher ratios may be approved with documented compensating factors such as verified cash reserves, minimal payment increase or residual income.",
  },
  {
    id: "fha-occupancy",
    kind: "agency",
    source: "fha",
    sourceLabel: "FHA (sample)",
    title: "FHA occupancy requirement",
    section: "Sample FHA handbook, principal residence",
    text: "FHA-insured purchase loans are for principal residences. At least one borrower must occupy the property within 60 days of closing and intend to live there for at least one year. Investment properties are not eligible for new FHA purchase financing.",
  },
  {
    id: "fnma-down-payment",
    kind: "agency",
    source: "fannie_mae",
    sourceLabel: "Fannie Mae (sample)",
    title: "Conventional minimum down payment",
    section: "Sample selling guide, eligibility matrix",
    text: "Fannie Mae permits loan-to-value ratios up to 97 percent, a 3 percent down payment, for a one-unit principal residence purchase when at least one borrower is a first-time homebuyer or the loan is a HomeReady loan. Other one-unit principal residence purchases generally allow up to 95 percent LTV, a 5 percent down payment.",
  },
  {
    id: "fnma-mortgage-insurance",
    kind: "agency",
    source: "fannie_mae",
    sourceLabel: "Fannie Mae (sample)",
    title: "Mortgage insurance on conventional loans",
    section: "Sample selling guide, mortgage insurance coverage",
    text: "Conventional loans with a loan-to-value ratio above 80 percent require private mortgage insurance. The required coverage depends on the LTV, the loan term and the product; HomeReady loans above 90 percent LTV use reduced coverage.",
  },
  {
    id: "fnma-dti",
    kind: "agency",
    source: "fannie_mae",
    sourceLabel: "Fannie Mae (sample)",
    title: "Conventional debt-to-income ratio",
    section: "Sample selling guide, debt-to-income ratios",
    text: "For manually underwritten loans the maximum total debt-to-income ratio is 36 percent, or up to 45 percent when the borrower meets credit score and reserve requirements. Loans underwritten with Desktop Underwriter may be approved with a debt-to-income ratio up to 50 percent.",
  },
  {
    id: "fnma-credit-score",
    kind: "agency",
    source: "fannie_mae",
    sourceLabel: "Fannie Mae (sample)",
    title: "Minimum credit score for conventional loans",
    section: "Sample selling guide, credit score requirements",
    text: "Fannie Mae's minimum representative credit score for most fixed-rate loans is 620. Higher minimums apply to some adjustable-rate loans, high loan-to-value transactions and manually underwritten loans.",
  },
  {
    id: "fnma-cash-out",
    kind: "agency",
    source: "fannie_mae",
    sourceLabel: "Fannie Mae (sample)",
    title: "Cash-out refinance limits",
    section: "Sample selling guide, cash-out refinance transactions",
    text: "A cash-out refinance of a one-unit principal residence is limited to a maximum loan-to-value ratio of 80 percent. At least one borrower must have been on title for six months before the disbursement date of the new loan, with limited exceptions.",
  },
  {
    id: "fhlmc-home-possible",
    kind: "agency",
    source: "freddie_mac",
    sourceLabel: "Freddie Mac (sample)",
    title: "Home Possible down payment",
    section: "Sample seller/servicer guide, Home Possible mortgages",
    text: "Home Possible mortgages allow loan-to-value ratios up to 97 percent, a 3 percent down payment, for borrowers whose income does not exceed 80 percent of the area median income. Down payment funds may come from gifts, grants and eligible secondary financing.",
  },
  {
    id: "fhlmc-condo",
    kind: "agency",
    source: "freddie_mac",
    sourceLabel: "Freddie Mac (sample)",
    title: "Condominium project review",
    section: "Sample seller/servicer guide, condominium projects",
    text: "Loans secured by condominium units require a project review unless an exemption applies. Projects with significant commercial space, pending litigation or inadequate reserves may be ineligible. Detached condominium units are exempt from the full project review.",
  },
  {
    id: "va-down-payment",
    kind: "agency",
    source: "va",
    sourceLabel: "VA (sample)",
    title: "VA loans and down payment",
    section: "Sample VA lender handbook, guaranty and entitlement",
    text: "An eligible veteran with full entitlement may purchase a home with no down payment with a VA-guaranteed loan. A down payment may be needed when the veteran has reduced entitlement or the price exceeds the reasonable value. A funding fee applies unless the veteran is exempt, for example because of a service-connected disability.",
  },
  {
    id: "va-residual-income",
    kind: "agency",
    source: "va",
    sourceLabel: "VA (sample)",
    title: "VA residual income and debt ratio",
    section: "Sample VA lender handbook, underwriting",
    text: "VA underwriting considers residual income, the money left each month after major expenses, compared with regional tables by family size. A debt-to-income ratio above 41 percent requires closer scrutiny and compensating factors unless residual income exceeds the guideline by at least 20 percent.",
  },
  {
    id: "usda-eligibility",
    kind: "agency",
    source: "usda",
    sourceLabel: "USDA (sample)",
    title: "USDA guaranteed loans: no down payment, income limits",
    section: "Sample USDA technical handbook, eligibility",
    text: "USDA guaranteed loans finance up to 100 percent of the appraised value, so no down payment is required. Household income may not exceed 115 percent of the area median income, and the property must be in an eligible rural area. An upfront guarantee fee of 1 percent and an annual fee of 0.35 percent apply.",
  },
  {
    id: "acme-fha-overlay",
    kind: "tenant_bucket",
    source: "acme_overlays",
    sourceLabel: "Acme credit overlays (sample)",
    title: "Acme overlay: FHA credit score and ratios",
    section: "Sample lender overlays, FHA",
    text: "Acme Lending requires a minimum credit score of 640 on FHA loans, above the agency minimum, and a maximum total debt-to-income ratio of 45 percent. FHA loans with scores from 580 to 639 are referred to the Acme specialty desk.",
  },
  {
    id: "acme-jumbo",
    kind: "tenant_bucket",
    source: "acme_jumbo",
    sourceLabel: "Acme jumbo program (sample)",
    title: "Acme jumbo program requirements",
    section: "Sample lender program guide, jumbo",
    text: "Acme's jumbo program requires a minimum down payment of 10 percent, a credit score of at least 700, and 12 months of principal, interest, taxes and insurance in reserves. Loan amounts above 2 million dollars need a second appraisal.",
  },
  {
    id: "state-texas-cash-out",
    kind: "shared",
    source: "state_regulations",
    sourceLabel: "State regulations (sample)",
    title: "Texas home equity (cash-out) loans",
    section: "Sample state rules, Texas Section 50(a)(6)",
    text: "In Texas, a home equity cash-out loan on a homestead may not exceed 80 percent of the home's fair market value when combined with other liens. The borrower must receive the required notice at least 12 days before closing, and the loan must close at the office of a lender, attorney or title company.",
  },
  {
    id: "mi-cancellation",
    kind: "shared",
    source: "mi_guidelines",
    sourceLabel: "Mortgage insurance guidelines (sample)",
    title: "Cancelling private mortgage insurance",
    section: "Sample MI guidelines, Homeowners Protection Act",
    text: "A borrower may request cancellation of private mortgage insurance when the principal balance reaches 80 percent of the original value, with a good payment history. Private mortgage insurance terminates automatically when the balance is scheduled to reach 78 percent of the original value.",
  },
];
