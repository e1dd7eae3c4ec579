/**
 * The `type` of each `data:` frame of a text/event-stream body, in order (comments and unparsable
 * frames skipped); an `error` frame's type carries its code (`error upstream_error`), so a run
 * that ends streams with errors says which.
 */
export function frameTypes(body: string): string[] {
  const types: string[] = [];
  for (const frame of body.split("\n\n")) {
    const data = frame
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    try {
      const parsed = JSON.parse(data) as { type?: unknown; error?: { code?: unknown } };
      if (parsed.type === "error") types.push(`error ${String(parsed.error?.code ?? "without a code")}`);
      else if (typeof parsed.type === "string") types.push(parsed.type);
    } catch {
      // Not a JSON frame: not one of ours.
    }
  }
  return types;
}
