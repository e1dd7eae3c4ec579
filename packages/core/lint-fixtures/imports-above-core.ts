// Lint fixture: breaks a rule on purpose, each line silenced by a directive that the lint run (reportUnusedDisableDirectives: error) fails on if the rule stops firing. Linted only: outside tsconfig's include, never built or run.
// core is the domain: it knows nothing of the wire layer, the transport or the UI above it.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: core may not import @mga/api
export { appRouter } from "@mga/api";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: core may not import tRPC
export { TRPCError } from "@trpc/server";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: core may not import Next.js
export { NextResponse } from "next/server";
