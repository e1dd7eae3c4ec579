/** Dates as staff read them: UTC, to the minute, unambiguous across time zones. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

/** A page's search parameters as a query string, dropping empty values (links keep filters). */
export function queryString(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** One value of a Next search-params object (arrays: the first). */
export function param(params: Record<string, string | string[] | undefined>, key: string): string | undefined {
  const value = params[key];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
}

/** A dynamic route segment as typed (some Next versions hand it over still percent-encoded). */
export function segment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
