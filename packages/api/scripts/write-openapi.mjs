// Writes the OpenAPI document, as GET /v1/openapi.json serves it, to a file for tools (redocly
// lint, SDK type generation). Run after tsup: `node scripts/write-openapi.mjs <file> [base URL]`.
// The base URL is the `servers` entry (PUBLIC_BASE_URL); by default the server's own default origin.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

import { buildOpenApiDocument } from "../dist/index.js";

const [file, baseUrl = "http://127.0.0.1:3000"] = process.argv.slice(2);
if (!file) {
  console.error("usage: write-openapi.mjs <file> [base URL]");
  process.exit(2);
}
const target = resolve(file);
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(baseUrl.replace(/\/+$/, "")), null, 2)}\n`);
