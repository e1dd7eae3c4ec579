import { z } from "zod";

/**
 * The agency guideline sources the service offers (the assistant's corpus holds these): a
 * tenant configuration may enable only these, so a typo cannot enable a source that answers
 * nothing. Listed in the console as the choices.
 */
export const AGENCY_SOURCE_TYPES = ["fannie_mae", "freddie_mac", "fha", "va", "usda"] as const;
export type AgencySourceType = (typeof AGENCY_SOURCE_TYPES)[number];

/**
 * One agency source type on the wire (a request's search_options, GET /v1/sources, the key's
 * tenant): a named enum in the OpenAPI document, so a client's generated types refuse "fhaa"
 * before the server has to.
 */
export const agencySourceTypeSchema = z
  .enum(AGENCY_SOURCE_TYPES)
  .meta({ id: "AgencySourceType", description: "An agency guideline source the service offers." });

/** "fannie_mae, freddie_mac, fha, va and usda", for messages. */
export function describeAgencySources(): string {
  return `${AGENCY_SOURCE_TYPES.slice(0, -1).join(", ")} and ${AGENCY_SOURCE_TYPES.at(-1)}`;
}
