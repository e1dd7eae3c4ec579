import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

import { buildOpenApiDocument } from "@mga/api";

/**
 * docs/testing.md maps every /v1 operation to the test file holding its happy, error and
 * security cases. This keeps that map true: a new operation without a row, a row for an
 * operation that is gone, a file that does not exist or lacks one of the three blocks all fail.
 */
const serverRoot = fileURLToPath(new URL("../../", import.meta.url));
const testingDoc = fileURLToPath(new URL("../../../../docs/testing.md", import.meta.url));
const BLOCKS = ["happy", "errors", "security"];

/** The rows of the route table: `| METHOD | /v1/path | test/file.test.ts |`. */
function mappedRoutes(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of readFileSync(testingDoc, "utf8").split("\n")) {
    const match = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\/v1\/\S*)\s*\|\s*(\S+)\s*\|$/.exec(line);
    if (match) rows.set(`${match[1]} ${match[2]}`, match[3]!);
  }
  return rows;
}

function documentedOperations(): string[] {
  const paths = buildOpenApiDocument("http://localhost").paths ?? {};
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.keys(item as object)
      .filter((method) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe("docs/testing.md: every /v1 operation's tests can be found from its name", () => {
  it("every operation of the OpenAPI document has a row, and every row is an operation", () => {
    const operations = documentedOperations();
    expect(operations.length).toBeGreaterThan(0);
    expect([...mappedRoutes().keys()].sort()).toEqual([...operations].sort());
  });

  it("each file named exists and has the happy, errors and security describe blocks", () => {
    const problems: string[] = [];
    for (const [operation, file] of mappedRoutes()) {
      const path = `${serverRoot}${file}`;
      if (!existsSync(path)) {
        problems.push(`${operation}: ${file} does not exist`);
        continue;
      }
      const text = readFileSync(path, "utf8");
      for (const block of BLOCKS)
        if (!text.includes(`describe("${block}"`)) problems.push(`${operation}: ${file} has no describe("${block}")`);
    }
    expect(problems).toEqual([]);
  });
});
