/**
 * Public responses carry sanitized citations and sources only (spec section 1). The
 * upstream may send anything (model names, prompts, scores, internal ids); only these
 * allow-listed fields, with these types, ever reach a partner or the database.
 */
export interface PublicCitation {
  id?: string;
  title?: string;
  source_type?: string;
  source_key?: string;
  source_label?: string;
  section?: string;
  excerpt?: string;
  url?: string;
  page?: number;
}

export interface PublicSource {
  source_type?: string;
  source_key?: string;
  label?: string;
  title?: string;
  url?: string;
}

const CITATION_STRINGS = [
  "id",
  "title",
  "source_type",
  "source_key",
  "source_label",
  "section",
  "excerpt",
  "url",
] as const;
const SOURCE_STRINGS = ["source_type", "source_key", "label", "title", "url"] as const;
const MAX_ITEMS = 50;
const MAX_STRING = 2000;

export function sanitizeCitations(input: unknown): PublicCitation[] {
  return asObjects(input)
    .map((item) => {
      const out: PublicCitation = pickStrings(item, CITATION_STRINGS);
      if (typeof item.page === "number" && Number.isInteger(item.page) && item.page >= 0) out.page = item.page;
      return out;
    })
    .filter((citation) => Object.keys(citation).length > 0);
}

export function sanitizeSources(input: unknown): PublicSource[] {
  return asObjects(input)
    .map((item) => pickStrings(item, SOURCE_STRINGS))
    .filter((source) => Object.keys(source).length > 0);
}

function asObjects(input: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(input)) return [];
  return input
    .filter(
      (item): item is Record<string, unknown> => typeof item === "object" && item !== null && !Array.isArray(item),
    )
    .slice(0, MAX_ITEMS);
}

function pickStrings<K extends string>(item: Record<string, unknown>, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = item[key];
    if (typeof value === "string" && value.length > 0) out[key] = value.slice(0, MAX_STRING);
    if (key === "url" && out[key] !== undefined && !/^https?:\/\//.test(out[key] as string)) delete out[key];
  }
  return out;
}
