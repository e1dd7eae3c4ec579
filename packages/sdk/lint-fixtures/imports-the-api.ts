// Lint fixture: breaks a rule on purpose, each line silenced by a directive that the lint run (reportUnusedDisableDirectives: error) fails on if the rule stops firing. Linted only: outside tsconfig's include, never built or run.
// The SDK is installed without the monorepo, so it imports none of our packages.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- fixture: the SDK may not import @mga/api
export { buildOpenApiDocument } from "@mga/api";
