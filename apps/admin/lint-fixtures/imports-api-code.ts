// Lint fixture: breaks a rule on purpose, each line silenced by a directive that the lint run (reportUnusedDisableDirectives: error) fails on if the rule stops firing. Linted only: outside tsconfig's include, never built or run.
// The console talks typed tRPC to the admin listener: it needs the router's type, never its code.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: the console may import only types from @mga/api
import { appRouter, type AdminRouter } from "@mga/api";

// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: the console never runs core's code
export { openDatabase } from "@mga/core/db";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: the console never talks to the database
export { Pool } from "pg";

export type Router = AdminRouter;
export const router = appRouter;
