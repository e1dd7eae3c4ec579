import { router } from "../../trpc";
import { getUsage } from "./get-usage";

export const usageRouter = router({ getUsage });
