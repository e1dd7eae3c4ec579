import type { inferRouterOutputs } from "@trpc/server";

import type { AdminRouter } from "@mga/api";

/** The staff procedures' results, inferred from the API's router (no copies of its shapes). */
export type StaffOutputs = inferRouterOutputs<AdminRouter>["staff"];
export type KeyRow = StaffOutputs["keys"]["list"][number];
export type IntegrationRow = StaffOutputs["integrations"]["list"][number];
export type PartnerUserRow = StaffOutputs["partnerUsers"]["list"]["users"][number];
export type TenantConfig = StaffOutputs["organizations"]["get"]["tenant"];
export type UsageReport = StaffOutputs["usage"]["organizationUsage"];
export type LoggedRequest = StaffOutputs["usage"]["requestLog"]["requests"][number];
