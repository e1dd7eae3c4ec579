import { router } from "../../trpc";
import { createEmbedSession } from "./create-embed-session";

export const launchesRouter = router({ createEmbedSession });
