import { router } from "../../trpc";
import { listSources } from "./list-sources";

export const sourcesRouter = router({ listSources });
