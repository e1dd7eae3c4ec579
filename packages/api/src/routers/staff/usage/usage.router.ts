import { router } from "../../../trpc";
import { findRequest } from "./find-request";
import { keyUsage } from "./key-usage";
import { organizationUsage } from "./organization-usage";
import { requestLog } from "./request-log";
import { usageOverview } from "./usage-overview";

/** Usage and the request log, for any signed-in staff member (reads, not audited). */
export const staffUsageRouter = router({ organizationUsage, keyUsage, usageOverview, requestLog, findRequest });
