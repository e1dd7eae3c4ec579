import { describe, expectTypeOf, it } from "vitest";

import type { components } from "../src/generated/openapi";
import type { SendMessageParams } from "../src/types";

/**
 * What the OpenAPI document states as a closed list reaches the generated types, so a typo is a
 * compile error in the caller's code rather than a 400 at run time. Checked by `typecheck` (the
 * `@ts-expect-error` lines fail it if the typo compiles); the test run only confirms the file loads.
 */
describe("the generated types", () => {
  it("know the agency source types the service offers", () => {
    expectTypeOf<components["schemas"]["AgencySourceType"]>().toEqualTypeOf<
      "fannie_mae" | "freddie_mac" | "fha" | "va" | "usda"
    >();
    const user = { external_user_id: "lo-1042" };
    const valid: SendMessageParams = {
      message: "FHA minimum down payment?",
      user,
      search_options: { agency_source_types: ["fha", "fannie_mae"] },
    };
    const typo: SendMessageParams = {
      message: "FHA minimum down payment?",
      user,
      // @ts-expect-error "fhaa" is not an agency source type
      search_options: { agency_source_types: ["fhaa"] },
    };
    expectTypeOf(valid.search_options?.agency_source_types).toEqualTypeOf<
      Array<components["schemas"]["AgencySourceType"]> | undefined
    >();
    expectTypeOf(typo).toEqualTypeOf<SendMessageParams>();
  });
});
