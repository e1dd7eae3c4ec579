import { ALIAS_GRANT_RULE } from "@mga/core/launches";

import { staffProcedure } from "../../../trpc";
import { aliasRuleOutput } from "./integrations.types";

/** The alias rule in the words the CLI's help uses, for the console's integration and key pages. */
export const aliasRule = staffProcedure.output(aliasRuleOutput).query(() => ALIAS_GRANT_RULE);
