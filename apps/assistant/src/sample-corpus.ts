/**
 * SAMPLE DATA. Short, paraphrased excerpts written for this project so that a local
 * installation answers mortgage questions with real retrieval and real citations. They
 * are illustrative, simplified and possibly out of date: never use them as guidance. Every
 * source label says "(sample)" and every answer says the data is sample data.
 *
 * Each passage belongs to one source: an agency source type (`agency`: every type core's
 * AGENCY_SOURCE_TYPES offers has excerpts), a tenant bucket (`tenant_bucket`, matching the
 * keys in examples/tenant.json) or a shared source type (`shared`). A lender's overlay that
 * applies to some loan programs only names them in `programs`, so it is not offered for a
 * loan of another program; a state's rule names its state in `states`.
 */
export interface SamplePassage {
  id: string;
  kind: "agency" | "tenant_bucket" | "shared";
  source: string;
  sourceLabel: string;
  title: string;
  section: string;
  text: string;
  /** Loan programs (spec 2.12) an overlay or shared rule applies to; absent: all of them. */
  programs?: string[];
  /** A state's rule: cited only for a question about that state or a loan there (postal codes). */
  states?: string[];
}

type Excerpt = Pick<SamplePassage, "id" | "title" | "section" | "text" | "programs" | "states">;

const LABELS: Record<string, string> = {
  fha: "FHA (sample)",
  fannie_mae: "Fannie Mae (sample)",
  freddie_mac: "Freddie Mac (sample)",
  va: "VA (sample)",
  usda: "USDA (sample)",
  acme_overlays: "Acme credit overlays (sample)",
  acme_jumbo: "Acme jumbo program (sample)",
  state_regulations: "State regulations (sample)",
  mi_guidelines: "Mortgage insurance guidelines (sample)",
};

function from(kind: SamplePassage["kind"], source: string, excerpts: Excerpt[]): SamplePassage[] {
  return excerpts.map((excerpt) => ({ kind, source, sourceLabel: LABELS[source] ?? source, ...excerpt }));
}

const FHA = from("agency", "fha", [
  {
    id: "fha-down-payment",
    title: "FHA minimum down payment (minimum required investment)",
    section: "Sample FHA handbook, borrower's minimum down payment",
    text: "For an FHA-insured purchase the borrower's minimum required investment is 3.5 percent of the lesser of the sales price or appraised value when the credit score is 580 or higher. Borrowers with credit scores from 500 to 579 must make a minimum down payment of 10 percent. Borrowers with scores below 500 are not eligible for FHA-insured financing.",
  },
  {
    id: "fha-gift-funds",
    title: "FHA gift funds for the down payment",
    section: "Sample FHA handbook, acceptable sources of funds",
    text: "The down payment on an FHA loan may come entirely from a gift. Acceptable donors include family members, employers, close friends with a documented relationship, and governmental agencies. The donor must provide a gift letter stating that no repayment is expected, and the transfer of funds must be documented.",
  },
  {
    id: "fha-mip",
    title: "FHA mortgage insurance premium (MIP)",
    section: "Sample FHA handbook, mortgage insurance premiums",
    text: "FHA loans carry an upfront mortgage insurance premium (MIP) of 1.75 percent of the base loan amount, which may be financed, and an annual premium paid monthly. For most loans with a down payment of less than 10 percent the annual premium is paid for the life of the loan; with 10 percent or more down it ends after 11 years.",
  },
  {
    id: "fha-dti",
    title: "FHA debt-to-income (DTI) ratios",
    section: "Sample FHA handbook, qualifying ratios",
    text: "Manually underwritten FHA loans generally use a housing ratio of 31 percent and a total debt-to-income (DTI) ratio of 43 percent. Higher ratios may be approved with documented compensating factors such as verified cash reserves, minimal payment increase or residual income.",
  },
  {
    id: "fha-occupancy",
    title: "FHA occupancy requirement",
    section: "Sample FHA handbook, principal residence",
    text: "FHA-insured purchase loans are for principal residences. At least one borrower must occupy the property within 60 days of closing and intend to live there for at least one year. Investment properties are not eligible for new FHA purchase financing.",
  },
  {
    id: "fha-loan-limits",
    title: "FHA loan limits by county",
    section: "Sample FHA handbook, maximum mortgage amounts",
    text: "The maximum FHA mortgage amount depends on the county and the number of units. Each county has a floor and a ceiling set every year; high-cost areas allow larger loan amounts. The base loan amount may not exceed the county limit, although the upfront premium may be financed on top of it.",
  },
  {
    id: "fha-seller-concessions",
    title: "FHA seller concessions (interested party contributions)",
    section: "Sample FHA handbook, interested party contributions",
    text: "The seller, builder or another interested party may contribute up to 6 percent of the sales price toward the buyer's closing costs, prepaid items and discount points. Contributions above 6 percent reduce the sales price used to compute the maximum mortgage. Interested parties may not pay the borrower's minimum required investment.",
  },
  {
    id: "fha-condo",
    title: "FHA condominium project approval",
    section: "Sample FHA handbook, condominiums",
    text: "An FHA loan on a condominium unit requires the project to be on the FHA-approved condominium list, or a single-unit approval of the unit. Projects need adequate budget reserves, limited commercial space and owner-occupancy levels within FHA's limits.",
  },
  {
    id: "fha-streamline",
    title: "FHA streamline refinance",
    section: "Sample FHA handbook, streamline refinances",
    text: "An FHA streamline refinance replaces an existing FHA-insured mortgage with reduced documentation and often no appraisal. The refinance must give a net tangible benefit, such as a lower combined rate, and the existing loan must have at least six payments made and be current. No cash over 500 dollars may go to the borrower.",
  },
  {
    id: "fha-cash-out",
    title: "FHA cash-out refinance",
    section: "Sample FHA handbook, cash-out refinances",
    text: "An FHA cash-out refinance is limited to 80 percent of the appraised value. The borrower must have owned and occupied the property as a principal residence for the previous 12 months, with all mortgage payments made on time.",
  },
  {
    id: "fha-bankruptcy-foreclosure",
    title: "FHA waiting periods after bankruptcy or foreclosure",
    section: "Sample FHA handbook, significant derogatory credit",
    text: "After a Chapter 7 bankruptcy discharge, a borrower generally waits two years before an FHA loan. After a foreclosure or deed-in-lieu the waiting period is three years from the date the title transferred. Shorter periods may apply for documented extenuating circumstances.",
  },
  {
    id: "fha-student-loans",
    title: "FHA student loan payments in the debt ratio",
    section: "Sample FHA handbook, student loans",
    text: "For student loans, the monthly payment used in the FHA debt ratio is the actual payment reported on the credit report; when it shows zero or the loan is deferred, use 0.5 percent of the outstanding balance.",
  },
  {
    id: "fha-203k",
    title: "FHA 203(k) rehabilitation loans",
    section: "Sample FHA handbook, rehabilitation mortgages",
    text: "The 203(k) program finances the purchase or refinance of a home together with the cost of repairs and renovation in one FHA-insured loan. The limited 203(k) covers minor, non-structural repairs up to a set amount; the standard 203(k) covers major rehabilitation and requires an FHA consultant.",
  },
  {
    id: "fha-non-occupant-coborrower",
    title: "FHA non-occupant co-borrowers",
    section: "Sample FHA handbook, borrower eligibility",
    text: "A relative who will not live in the home may be a non-occupant co-borrower on an FHA purchase, and that co-borrower's income counts toward qualifying. With a non-occupant co-borrower who is not a family member, the maximum loan-to-value is 75 percent.",
  },
  {
    id: "fha-employment-history",
    title: "FHA employment history",
    section: "Sample FHA handbook, effective income",
    text: "The lender verifies the borrower's employment for the most recent two full years. Gaps in employment of six months or more need an explanation, and a borrower returning to work after an extended absence must have been in the current job for at least six months.",
  },
]);

const FANNIE_MAE = from("agency", "fannie_mae", [
  {
    id: "fnma-down-payment",
    title: "Conventional minimum down payment",
    section: "Sample selling guide, eligibility matrix",
    text: "Fannie Mae permits loan-to-value ratios up to 97 percent, a 3 percent down payment, for a one-unit principal residence purchase when at least one borrower is a first-time homebuyer or the loan is a HomeReady loan. Other one-unit principal residence purchases generally allow up to 95 percent LTV, a 5 percent down payment.",
  },
  {
    id: "fnma-mortgage-insurance",
    title: "Mortgage insurance on conventional loans",
    section: "Sample selling guide, mortgage insurance coverage",
    text: "Conventional loans with a loan-to-value ratio above 80 percent require private mortgage insurance (PMI). The required coverage depends on the LTV, the loan term and the product; HomeReady loans above 90 percent LTV use reduced coverage.",
  },
  {
    id: "fnma-dti",
    title: "Conventional debt-to-income (DTI) ratio",
    section: "Sample selling guide, debt-to-income ratios",
    text: "For manually underwritten loans the maximum total debt-to-income (DTI) ratio is 36 percent, or up to 45 percent when the borrower meets credit score and reserve requirements. Loans underwritten with Desktop Underwriter may be approved with a debt-to-income ratio up to 50 percent.",
  },
  {
    id: "fnma-credit-score",
    title: "Minimum credit score for conventional loans",
    section: "Sample selling guide, credit score requirements",
    text: "Fannie Mae's minimum representative credit score for most fixed-rate loans is 620. Higher minimums apply to some adjustable-rate loans, high loan-to-value transactions and manually underwritten loans.",
  },
  {
    id: "fnma-cash-out",
    title: "Cash-out refinance limits",
    section: "Sample selling guide, cash-out refinance transactions",
    text: "A cash-out refinance of a one-unit principal residence is limited to a maximum loan-to-value ratio of 80 percent. At least one borrower must have been on title for six months before the disbursement date of the new loan, with limited exceptions.",
  },
  {
    id: "fnma-gift-funds",
    title: "Gifts for a conventional down payment",
    section: "Sample selling guide, personal gifts",
    text: "Gift funds from a relative, a domestic partner or a fiance may pay all of the down payment on a one-unit principal residence. On a two- to four-unit principal residence or a second home with more than 80 percent LTV, the borrower must contribute 5 percent from personal funds. Gifts are not allowed for investment properties. A signed gift letter documents the donor and that no repayment is expected.",
  },
  {
    id: "fnma-reserves",
    title: "Minimum reserve requirements",
    section: "Sample selling guide, minimum reserves",
    text: "Reserves are liquid assets left after closing, measured in months of the new housing payment. Desktop Underwriter determines the reserves for most loans; manually underwritten loans and two- to four-unit properties have minimums such as six months, and a borrower who owns other financed properties needs additional reserves for each of them.",
  },
  {
    id: "fnma-homeready-income",
    title: "HomeReady income limit",
    section: "Sample selling guide, HomeReady mortgage",
    text: "To qualify for a HomeReady mortgage, the borrower's qualifying income may not exceed 80 percent of the area median income (AMI) for the property's location. HomeReady allows income from a non-occupant borrower and, in some cases, rental income from an accessory unit or a boarder.",
  },
  {
    id: "fnma-condo",
    title: "Condominium project review for conventional loans",
    section: "Sample selling guide, project standards",
    text: "Loans on condominium units need a project review. A limited review is available for many principal residences at 90 percent LTV or less; otherwise a full review checks the budget, owner occupancy, litigation and the share of units owned by one entity.",
  },
  {
    id: "fnma-investment-property",
    title: "Investment property purchases",
    section: "Sample selling guide, eligibility matrix, investment properties",
    text: "A one-unit investment property purchase may be financed up to 85 percent LTV, a 15 percent down payment; two- to four-unit investment properties are limited to 75 percent LTV. A borrower may have up to ten financed properties, with stricter credit and reserve requirements from the seventh.",
  },
  {
    id: "fnma-second-home",
    title: "Second homes",
    section: "Sample selling guide, occupancy types",
    text: "A second home must be a one-unit property occupied by the borrower for some part of the year, suitable for year-round use, and under the borrower's exclusive control, not a timeshare or rental managed by a company. Second homes may be financed up to 90 percent LTV.",
  },
  {
    id: "fnma-foreclosure-waiting",
    title: "Waiting period after a foreclosure or bankruptcy",
    section: "Sample selling guide, significant derogatory credit events",
    text: "A seven-year waiting period applies after a foreclosure, measured from its completion date. After a Chapter 7 bankruptcy the waiting period is four years from discharge, and two years when extenuating circumstances are documented.",
  },
  {
    id: "fnma-student-loans",
    title: "Student loan payments",
    section: "Sample selling guide, monthly debt obligations",
    text: "When the credit report shows no monthly payment for a student loan, or the loan is deferred or in forbearance, the lender uses 1 percent of the outstanding balance or a documented fully amortizing payment. An income-driven repayment of zero may be used when documented.",
  },
  {
    id: "fnma-self-employed",
    title: "Self-employed borrowers",
    section: "Sample selling guide, self-employment income",
    text: "Self-employment income generally needs a two-year history, documented with the borrower's personal and business tax returns. Desktop Underwriter may accept one year of returns when the business has existed for at least five years.",
  },
  {
    id: "fnma-loan-limits",
    title: "Conforming and high-balance loan limits",
    section: "Sample selling guide, maximum loan amounts",
    text: "The original loan amount may not exceed the conforming loan limit for the number of units, set every year. In designated high-cost areas a high-balance loan may exceed the base limit up to the area's limit, with some restrictions on LTV and cash-out.",
  },
  {
    id: "fnma-rental-income",
    title: "Rental income",
    section: "Sample selling guide, rental income",
    text: "Rental income from a subject two- to four-unit property or an investment property is generally counted at 75 percent of the gross rent, from leases or the appraiser's rent schedule, to allow for vacancies and maintenance.",
  },
]);

const FREDDIE_MAC = from("agency", "freddie_mac", [
  {
    id: "fhlmc-home-possible",
    title: "Home Possible down payment",
    section: "Sample seller/servicer guide, Home Possible mortgages",
    text: "Home Possible mortgages allow loan-to-value ratios up to 97 percent, a 3 percent down payment, for borrowers whose income does not exceed 80 percent of the area median income. Down payment funds may come from gifts, grants and eligible secondary financing.",
  },
  {
    id: "fhlmc-condo",
    title: "Condominium project review",
    section: "Sample seller/servicer guide, condominium projects",
    text: "Loans secured by condominium units require a project review unless an exemption applies. Projects with significant commercial space, pending litigation or inadequate reserves may be ineligible. Detached condominium units are exempt from the full project review.",
  },
  {
    id: "fhlmc-dti",
    title: "Debt-to-income ratio for Freddie Mac loans",
    section: "Sample seller/servicer guide, debt payment-to-income ratio",
    text: "Loans assessed by Loan Product Advisor may have a debt payment-to-income (DTI) ratio up to 50 percent. Manually underwritten loans are generally limited to 45 percent, with compensating factors documented above 36 percent.",
  },
  {
    id: "fhlmc-credit-score",
    title: "Minimum credit score for Freddie Mac loans",
    section: "Sample seller/servicer guide, credit scores",
    text: "Freddie Mac requires a minimum indicator credit score of 620 for most loans. Borrowers without a credit score may qualify with a nontraditional credit history on a manually underwritten loan.",
  },
  {
    id: "fhlmc-homeone",
    title: "HomeOne mortgage for first-time homebuyers",
    section: "Sample seller/servicer guide, HomeOne mortgages",
    text: "The HomeOne mortgage allows a 3 percent down payment for a one-unit principal residence when at least one borrower is a first-time homebuyer, with no income limit and no geographic restriction.",
  },
  {
    id: "fhlmc-gift-funds",
    title: "Gifts and grants",
    section: "Sample seller/servicer guide, gift funds",
    text: "Gift funds from a related person, a domestic partner, an employer or a nonprofit may be used toward the down payment and closing costs of a principal residence or second home. A gift letter must state that no repayment is required.",
  },
  {
    id: "fhlmc-reserves",
    title: "Reserves",
    section: "Sample seller/servicer guide, reserves",
    text: "Loan Product Advisor sets reserve requirements for most loans. Manually underwritten loans, two- to four-unit homes and investment properties need a minimum of months of the monthly housing payment, such as six months for an investment property.",
  },
  {
    id: "fhlmc-cash-out",
    title: "Cash-out refinance",
    section: "Sample seller/servicer guide, cash-out refinance mortgages",
    text: "A cash-out refinance of a one-unit primary residence may have a loan-to-value ratio up to 80 percent. The property must have been owned for at least six months, except for inherited property or a property received in a divorce.",
  },
  {
    id: "fhlmc-self-employed",
    title: "Self-employed income",
    section: "Sample seller/servicer guide, self-employment income",
    text: "Self-employment income requires a two-year history, or one year when the borrower was previously employed in the same line of work, documented with tax returns and a year-to-date profit and loss statement where needed.",
  },
  {
    id: "fhlmc-adu-income",
    title: "Accessory dwelling unit rental income",
    section: "Sample seller/servicer guide, accessory dwelling units",
    text: "Rental income from an accessory dwelling unit (ADU) on a one-unit primary residence may be used to qualify, documented with the appraiser's rent estimate, and may not exceed 30 percent of the borrower's total qualifying income.",
  },
  {
    id: "fhlmc-appraisal-waiver",
    title: "Automated collateral evaluation (appraisal waiver)",
    section: "Sample seller/servicer guide, ACE",
    text: "Some purchase and refinance loans may be eligible for an automated collateral evaluation (ACE) instead of an appraisal, when Loan Product Advisor finds enough data on the property's value. Condominiums, manufactured homes and construction loans are not eligible.",
  },
  {
    id: "fhlmc-manufactured-home",
    title: "Manufactured homes",
    section: "Sample seller/servicer guide, manufactured homes",
    text: "A manufactured home must be permanently affixed to a foundation, titled as real property, at least 12 feet wide with 400 square feet of living space, and built to the federal HUD code. Manufactured home loans may go up to 95 percent LTV.",
  },
  {
    id: "fhlmc-mortgage-insurance",
    title: "Mortgage insurance coverage",
    section: "Sample seller/servicer guide, mortgage insurance",
    text: "Freddie Mac loans above 80 percent loan-to-value need mortgage insurance with coverage set by the LTV and the term; Home Possible loans may use reduced coverage above 90 percent LTV.",
  },
]);

const VA = from("agency", "va", [
  {
    id: "va-down-payment",
    title: "VA loans and down payment",
    section: "Sample VA lender handbook, guaranty and entitlement",
    text: "An eligible veteran with full entitlement may purchase a home with no down payment with a VA-guaranteed loan. A down payment may be needed when the veteran has reduced entitlement or the price exceeds the reasonable value.",
  },
  {
    id: "va-residual-income",
    title: "VA residual income",
    section: "Sample VA lender handbook, underwriting",
    text: "VA underwriting considers residual income, the money left each month after major expenses, compared with regional tables by family size and loan amount. The table amounts are the minimum residual income a family must have.",
  },
  {
    id: "va-dti",
    title: "VA debt-to-income (DTI) ratio",
    section: "Sample VA lender handbook, debt-to-income ratio",
    text: "VA has no hard maximum debt-to-income (DTI) ratio, but a ratio above 41 percent requires closer scrutiny and compensating factors unless residual income exceeds the guideline by at least 20 percent.",
  },
  {
    id: "va-funding-fee",
    title: "VA funding fee",
    section: "Sample VA lender handbook, funding fee",
    text: "A funding fee is charged on most VA loans; it depends on the down payment and whether the veteran has used the benefit before, for example 2.15 percent on a first-use purchase with no down payment. Veterans receiving compensation for a service-connected disability are exempt. The fee may be financed.",
  },
  {
    id: "va-entitlement",
    title: "VA entitlement and loan amounts",
    section: "Sample VA lender handbook, entitlement",
    text: "A veteran with full entitlement has no VA loan limit: the guaranty covers a quarter of the loan amount. With reduced entitlement, because an earlier VA loan is still open, the county limit determines how much can be borrowed with no down payment.",
  },
  {
    id: "va-eligibility",
    title: "VA eligibility and the certificate of eligibility",
    section: "Sample VA lender handbook, eligibility",
    text: "Veterans, active-duty service members, some members of the National Guard and Reserve, and some surviving spouses are eligible. The lender obtains a certificate of eligibility (COE) showing the veteran's entitlement before closing.",
  },
  {
    id: "va-irrrl",
    title: "VA interest rate reduction refinance (IRRRL)",
    section: "Sample VA lender handbook, IRRRL",
    text: "An interest rate reduction refinance loan (IRRRL) refinances an existing VA loan into a new VA loan at a lower rate, usually with no appraisal and no credit underwriting. The veteran must certify prior occupancy, and the loan must recoup its costs within 36 months.",
  },
  {
    id: "va-cash-out",
    title: "VA cash-out refinance",
    section: "Sample VA lender handbook, cash-out refinance",
    text: "A VA cash-out refinance may go up to 100 percent of the home's reasonable value, including the funding fee. It can refinance a VA or non-VA loan and requires a new appraisal and full underwriting.",
  },
  {
    id: "va-mpr",
    title: "VA minimum property requirements",
    section: "Sample VA lender handbook, minimum property requirements",
    text: "The property must meet VA minimum property requirements (MPRs): safe, structurally sound and sanitary, with adequate heating, water and sewage. The VA appraiser notes required repairs, which must be completed before closing.",
  },
  {
    id: "va-occupancy",
    title: "VA occupancy",
    section: "Sample VA lender handbook, occupancy",
    text: "The veteran must certify the intent to occupy the home as a primary residence within a reasonable time, generally 60 days after closing. A spouse may satisfy occupancy when the veteran is deployed.",
  },
  {
    id: "va-credit-score",
    title: "Credit standards for VA loans",
    section: "Sample VA lender handbook, credit",
    text: "VA sets no minimum credit score; the lender reviews the veteran's overall credit history. Lenders often set their own minimum score for VA loans.",
  },
  {
    id: "va-seller-concessions",
    title: "VA seller concessions",
    section: "Sample VA lender handbook, seller concessions",
    text: "Seller concessions on a VA loan, such as paying the funding fee or paying off the buyer's debts, are limited to 4 percent of the reasonable value. Normal closing costs and discount points paid by the seller do not count toward the limit.",
  },
  {
    id: "va-bankruptcy-foreclosure",
    title: "VA loans after bankruptcy or foreclosure",
    section: "Sample VA lender handbook, derogatory credit",
    text: "A veteran is generally eligible two years after a Chapter 7 bankruptcy discharge and two years after a foreclosure, when credit has been re-established.",
  },
  {
    id: "va-energy-efficient",
    title: "VA energy efficient mortgage",
    section: "Sample VA lender handbook, energy efficiency improvements",
    text: "An energy efficient mortgage adds up to 6,000 dollars to a VA loan for documented energy improvements such as insulation, solar systems or new windows, without changing the qualifying ratios.",
  },
]);

const USDA = from("agency", "usda", [
  {
    id: "usda-down-payment",
    title: "USDA guaranteed loans: no down payment",
    section: "Sample USDA technical handbook, loan amount",
    text: "USDA guaranteed loans finance up to 100 percent of the appraised value, so no down payment is required. The guarantee fee may be financed on top of the appraised value.",
  },
  {
    id: "usda-income-limits",
    title: "USDA household income limits",
    section: "Sample USDA technical handbook, income eligibility",
    text: "Annual household income may not exceed 115 percent of the area median income (AMI) for the county and household size. The income of every adult member of the household counts toward the limit, even a member who is not on the loan.",
  },
  {
    id: "usda-fees",
    title: "USDA guarantee fee and annual fee",
    section: "Sample USDA technical handbook, guarantee fees",
    text: "An upfront guarantee fee of 1 percent of the loan amount and an annual fee of 0.35 percent of the outstanding balance apply to USDA guaranteed loans. The annual fee is paid monthly for the life of the loan.",
  },
  {
    id: "usda-property-eligibility",
    title: "USDA eligible rural areas",
    section: "Sample USDA technical handbook, property eligibility",
    text: "The property must be in an eligible rural area on the USDA eligibility map, be a modest single-family home, and not be used for income-producing activities such as a working farm.",
  },
  {
    id: "usda-dti",
    title: "USDA debt ratios",
    section: "Sample USDA technical handbook, ratio analysis",
    text: "USDA uses a housing (PITI) ratio of 29 percent and a total debt-to-income (DTI) ratio of 41 percent. Higher ratios may be approved with compensating factors and a GUS Accept recommendation.",
  },
  {
    id: "usda-credit-score",
    title: "USDA credit score and GUS",
    section: "Sample USDA technical handbook, credit analysis",
    text: "Applicants with a credit score of 640 or more may receive streamlined credit review through the Guaranteed Underwriting System (GUS). Scores under 640 require manual underwriting with a full review of credit history.",
  },
  {
    id: "usda-occupancy",
    title: "USDA occupancy",
    section: "Sample USDA technical handbook, occupancy",
    text: "The home must be the borrower's primary residence, occupied within 60 days of closing. USDA guaranteed loans are not available for second homes or investment properties.",
  },
  {
    id: "usda-refinance",
    title: "USDA streamlined-assist refinance",
    section: "Sample USDA technical handbook, refinance transactions",
    text: "An existing USDA loan may be refinanced with the streamlined-assist option, with no new appraisal and reduced credit review, when the new payment is at least 50 dollars lower. Cash-out refinances are not allowed.",
  },
  {
    id: "usda-manufactured-home",
    title: "USDA and manufactured homes",
    section: "Sample USDA technical handbook, manufactured housing",
    text: "A manufactured home financed with a USDA guaranteed loan must be new, never occupied, on a permanent foundation and titled as real estate, and purchased from an approved dealer-contractor.",
  },
  {
    id: "usda-assets",
    title: "USDA assets and reserves",
    section: "Sample USDA technical handbook, assets",
    text: "USDA does not require cash reserves. Assets are documented for closing costs; households with large net assets may be asked to use part of them toward the purchase.",
  },
  {
    id: "usda-property-condition",
    title: "USDA property condition and repairs",
    section: "Sample USDA technical handbook, property standards",
    text: "The home must be decent, safe and sanitary and meet HUD property standards. Minor repairs that cannot be completed before closing, for example because of weather, may be escrowed and completed within 180 days.",
  },
]);

const ACME_OVERLAYS = from("tenant_bucket", "acme_overlays", [
  {
    id: "acme-fha-overlay",
    title: "Acme overlay: FHA credit score and ratios",
    section: "Sample lender overlays, FHA",
    text: "Acme Lending requires a minimum credit score of 640 on FHA loans, above the agency minimum, and a maximum total debt-to-income ratio of 45 percent. FHA loans with scores from 580 to 639 are referred to the Acme specialty desk.",
    programs: ["fha"],
  },
  {
    id: "acme-va-overlay",
    title: "Acme overlay: VA credit score and residual income",
    section: "Sample lender overlays, VA",
    text: "Acme Lending requires a minimum credit score of 620 on VA loans. When the debt-to-income ratio is above 41 percent, Acme requires residual income of at least 120 percent of the VA table amount.",
    programs: ["va"],
  },
  {
    id: "acme-usda-overlay",
    title: "Acme overlay: USDA loans",
    section: "Sample lender overlays, USDA",
    text: "Acme Lending closes USDA guaranteed loans only with a GUS Accept recommendation and a credit score of at least 660; manually underwritten USDA loans are not offered.",
    programs: ["usda"],
  },
  {
    id: "acme-conventional-overlay",
    title: "Acme overlay: conventional loans",
    section: "Sample lender overlays, conventional",
    text: "On conventional loans Acme Lending caps the debt-to-income ratio at 45 percent whatever the automated findings, and requires a credit score of at least 640 when the loan-to-value ratio is above 90 percent.",
    programs: ["conventional"],
  },
  {
    id: "acme-gift-overlay",
    title: "Acme overlay: documenting gift funds",
    section: "Sample lender overlays, assets",
    text: "For gifts on any loan program, Acme Lending requires the donor's bank statement showing the withdrawal and the borrower's statement showing the deposit, in addition to the agency's gift letter.",
  },
  {
    id: "acme-manufactured-overlay",
    title: "Acme overlay: manufactured homes",
    section: "Sample lender overlays, property types",
    text: "Acme Lending does not finance manufactured homes or single-wide units under any program, whatever the agency allows.",
  },
  {
    id: "acme-condo-overlay",
    title: "Acme overlay: condominiums",
    section: "Sample lender overlays, property types",
    text: "Acme Lending does not lend on condotels or on units in condominium projects with more than 25 percent commercial space, and requires the master insurance policy before closing.",
  },
  {
    id: "acme-investment-overlay",
    title: "Acme overlay: investment properties",
    section: "Sample lender overlays, occupancy",
    text: "Acme Lending limits a borrower to four financed properties, including the one being financed, when the loan is for an investment property, and requires 12 months of reserves for each.",
    programs: ["conventional"],
  },
]);

const ACME_JUMBO = from("tenant_bucket", "acme_jumbo", [
  {
    id: "acme-jumbo",
    title: "Acme jumbo program requirements",
    section: "Sample lender program guide, jumbo",
    text: "Acme's jumbo program requires a minimum down payment of 10 percent, a credit score of at least 700, and 12 months of principal, interest, taxes and insurance in reserves. Loan amounts above 2 million dollars need a second appraisal.",
  },
  {
    id: "acme-jumbo-dti",
    title: "Acme jumbo debt-to-income ratio",
    section: "Sample lender program guide, jumbo qualifying",
    text: "Acme's jumbo loans allow a maximum debt-to-income ratio of 43 percent; interest-only jumbo loans qualify at the fully amortizing payment.",
  },
  {
    id: "acme-jumbo-loan-amount",
    title: "Acme jumbo loan amounts",
    section: "Sample lender program guide, jumbo loan amounts",
    text: "Acme's jumbo program lends from just above the conforming limit up to 3 million dollars on a primary residence and 1.5 million on a second home; investment properties are not eligible.",
  },
]);

const STATE_REGULATIONS = from("shared", "state_regulations", [
  {
    id: "state-texas-cash-out",
    title: "Texas home equity (cash-out) loans",
    section: "Sample state rules, Texas Section 50(a)(6)",
    text: "In Texas, a home equity cash-out loan on a homestead may not exceed 80 percent of the home's fair market value when combined with other liens. The borrower must receive the required notice at least 12 days before closing, and the loan must close at the office of a lender, attorney or title company.",
    states: ["TX"],
  },
  {
    id: "state-new-york-cema",
    title: "New York consolidation, extension and modification agreements (CEMA)",
    section: "Sample state rules, New York mortgage recording tax",
    text: "In New York a refinance may be done as a CEMA, consolidating the existing mortgage with the new one so that mortgage recording tax is paid only on the new money rather than the whole balance.",
    states: ["NY"],
  },
  {
    id: "state-california-disclosures",
    title: "California borrower disclosures",
    section: "Sample state rules, California",
    text: "California lenders give borrowers a notice of the right to an appraisal copy and, for loans with a balloon payment, a specific disclosure; home loans also carry the state's notice about the borrower's right to choose the insurance provider.",
    states: ["CA"],
  },
]);

const MI_GUIDELINES = from("shared", "mi_guidelines", [
  {
    id: "mi-cancellation",
    title: "Cancelling private mortgage insurance",
    section: "Sample MI guidelines, Homeowners Protection Act",
    text: "A borrower may request cancellation of private mortgage insurance when the principal balance reaches 80 percent of the original value, with a good payment history. Private mortgage insurance terminates automatically when the balance is scheduled to reach 78 percent of the original value.",
    programs: ["conventional"],
  },
  {
    id: "mi-lender-paid",
    title: "Borrower-paid and lender-paid mortgage insurance",
    section: "Sample MI guidelines, premium plans",
    text: "Private mortgage insurance may be borrower-paid, monthly or as a single premium, or lender-paid (LPMI), where the lender pays the premium in exchange for a higher interest rate. Lender-paid mortgage insurance cannot be cancelled.",
    programs: ["conventional"],
  },
]);

export const SAMPLE_CORPUS: SamplePassage[] = [
  ...FHA,
  ...FANNIE_MAE,
  ...FREDDIE_MAC,
  ...VA,
  ...USDA,
  ...ACME_OVERLAYS,
  ...ACME_JUMBO,
  ...STATE_REGULATIONS,
  ...MI_GUIDELINES,
];
