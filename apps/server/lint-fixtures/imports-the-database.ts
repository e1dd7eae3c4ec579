// Lint fixture: breaks a rule on purpose, each line silenced by a directive that the lint run (reportUnusedDisableDirectives: error) fails on if the rule stops firing. Linted only: outside tsconfig's include, never built or run.
// The server wires core and api together; the database stays behind core's domain functions.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: the server may not import the Prisma client
export { PrismaClient } from "@prisma/client";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: the server may not import core's generated client
export * from "@mga/core/src/generated/prisma/client";
