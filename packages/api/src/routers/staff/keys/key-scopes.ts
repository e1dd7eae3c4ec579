import {
  KEY_SEPARATION_ADVICE,
  MAX_KEY_LIFETIME_DAYS,
  MAX_RATE_LIMIT_PER_MINUTE,
  MAX_ROLL_OVERLAP_SECONDS,
  SCOPE_DESCRIPTIONS,
  SCOPES,
  SOLO_SCOPES,
} from "@mga/core/keys";

import { staffProcedure } from "../../../trpc";
import { keyScopesOutput } from "./keys.types";

/**
 * The scope picker's content: every scope, what it allows, the spec's separation advice, and
 * the scopes best kept alone (the console warns as they are combined, before creating).
 */
export const keyScopes = staffProcedure.output(keyScopesOutput).query(() => ({
  scopes: SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })),
  advice: [...KEY_SEPARATION_ADVICE],
  solo_scopes: SOLO_SCOPES.map(({ scope, warning }) => ({ scope, warning })),
  max_rate_limit_per_minute: MAX_RATE_LIMIT_PER_MINUTE,
  max_key_lifetime_days: MAX_KEY_LIFETIME_DAYS,
  max_roll_overlap_seconds: MAX_ROLL_OVERLAP_SECONDS,
}));
