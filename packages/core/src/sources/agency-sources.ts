/**
 * The agency guideline sources the service offers (the assistant's corpus holds these): a
 * tenant configuration may enable only these, so a typo cannot enable a source that answers
 * nothing. Listed in the console as the choices.
 */
export const AGENCY_SOURCE_TYPES = ["fannie_mae", "freddie_mac", "fha", "va", "usda"] as const;

/** "fannie_mae, freddie_mac, fha, va and usda", for messages. */
export function describeAgencySources(): string {
  return `${AGENCY_SOURCE_TYPES.slice(0, -1).join(", ")} and ${AGENCY_SOURCE_TYPES.at(-1)}`;
}
