import { escapeHtml } from "./html-escape";

/**
 * Fills an HTML template of static/ (a file the formatter reads): `{{name}}` is the value
 * escaped for HTML text and attributes, `{{{name}}}` the value as it is (HTML this service
 * made: a page's body, another filled template). One pass: a value's own braces are never read
 * as a placeholder. A placeholder without a value is a bug of ours, so it throws.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>> = {}): string {
  return template
    .trimEnd()
    .replace(/\{\{\{(\w+)\}\}\}|\{\{(\w+)\}\}/g, (_match, raw: string | undefined, escaped: string | undefined) => {
      const name = (raw ?? escaped) as string;
      const value = values[name];
      if (value === undefined) throw new Error(`the template's {{${name}}} has no value`);
      return raw === undefined ? escapeHtml(String(value)) : String(value);
    });
}
