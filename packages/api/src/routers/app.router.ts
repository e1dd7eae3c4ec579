import { router } from "../trpc";
import { conversationsRouter } from "./conversations/conversations.router";
import { eventsRouter } from "./events/events.router";
import { keysRouter } from "./keys/keys.router";
import { launchesRouter } from "./launches/launches.router";
import { importsRouter } from "./partners/imports/imports.router";
import { operationsRouter } from "./partners/operations/operations.router";
import { teamsRouter } from "./partners/teams/teams.router";
import { usersRouter } from "./partners/users/users.router";
import { sourcesRouter } from "./sources/sources.router";
import { usageRouter } from "./usage/usage.router";

/** Every public (/v1) procedure, one router per resource. */
export const appRouter = router({
  keys: keysRouter,
  conversations: conversationsRouter,
  partnerTeams: teamsRouter,
  partnerUsers: usersRouter,
  partnerOperations: operationsRouter,
  partnerImports: importsRouter,
  launches: launchesRouter,
  sources: sourcesRouter,
  events: eventsRouter,
  usage: usageRouter,
});

export type AppRouter = typeof appRouter;
