import { buildOpenApiDocument } from "@mga/api";

/**
 * Every response a test receives from a documented /v1 operation must have a status the
 * OpenAPI document lists for that operation, so a status the document leaves out fails the
 * suite that produced it (test-app.ts's `request` checks each one). Requests to no documented
 * operation (an unknown path, a method the path does not have) are not checked here.
 */
interface DocumentedOperation {
  method: string;
  template: string;
  pattern: RegExp;
  statuses: ReadonlySet<string>;
}

let operations: DocumentedOperation[] | undefined;

function documentedOperations(): DocumentedOperation[] {
  operations ??= Object.entries(buildOpenApiDocument("http://127.0.0.1").paths ?? {}).flatMap(([template, item]) =>
    Object.entries(item as Record<string, { responses: Record<string, unknown> }>).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
      statuses: new Set(Object.keys(operation.responses)),
    })),
  );
  return operations;
}

/** A description of the problem when `status` is not documented for the operation `method path` names; otherwise undefined. */
export function undocumentedStatus(method: string, pathAndQuery: string, status: number): string | undefined {
  const path = pathAndQuery.split("?")[0] ?? "";
  const operation = documentedOperations().find(
    (candidate) => candidate.method === method.toUpperCase() && candidate.pattern.test(path),
  );
  if (!operation || operation.statuses.has(String(status))) return undefined;
  return `${method.toUpperCase()} ${path} answered ${status}, which the OpenAPI document does not list for ${operation.method} ${operation.template} (it lists ${[...operation.statuses].join(", ")})`;
}
