import { router } from "../trpc";
import { keysRouter } from "./keys/keys.router";
import { sourcesRouter } from "./sources/sources.router";
import { systemRouter } from "./system/system.router";

/** Every public (/v1) procedure, one router per resource. */
export const appRouter = router({
  keys: keysRouter,
  sources: sourcesRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;
