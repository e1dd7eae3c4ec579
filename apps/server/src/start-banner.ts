/** What a person starting the server sees first (stderr; MGA_PRINT_BANNER=0 hides it unless on a terminal). */
export function startBanner(baseUrl: string): string {
  return `
  Mortgage-guideline API is up: ${baseUrl}
  OpenAPI document:             ${baseUrl}/v1/openapi.json

  Next, in another terminal at the repository root: README.md, section Walkthrough. It creates
  an organization, its tenant configuration and one API key per role with the operator CLI
  (pnpm cli), then calls this API with curl, up to a hosted-chat launch.

`;
}
