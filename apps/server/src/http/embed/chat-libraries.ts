import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";

import { sendScript } from "../html";

/**
 * The two libraries the hosted chat page runs besides its own script, served from this
 * service's node_modules (the page's CSP allows same-origin scripts only, so no CDN):
 *   marked     renders an answer's Markdown to HTML;
 *   DOMPurify  sanitizes that HTML before it reaches the page (the answer comes from the
 *              upstream model: it may contain anything, <img onerror> and javascript: links included).
 * Their browser builds (UMD: each defines one global, `marked` and `DOMPurify`), read once.
 */
export interface ChatLibrary {
  path: string;
  /** What resolves to the build: marked exports no path to its browser build, so its package.json, and the file beside it. */
  specifier: string;
  file?: string;
}

export const CHAT_LIBRARIES: readonly ChatLibrary[] = [
  { path: "/embed/assets/marked.js", specifier: "marked/package.json", file: "lib/marked.umd.js" },
  { path: "/embed/assets/purify.js", specifier: "dompurify/dist/purify.min.js" },
];

const require = createRequire(import.meta.url);
const loaded = new Map<string, string>();

function libraryText(library: ChatLibrary): string {
  let text = loaded.get(library.path);
  if (text === undefined) {
    const resolved = require.resolve(library.specifier);
    const file = library.file ? path.join(path.dirname(resolved), library.file) : resolved;
    // The source map comment would send the browser asking for a file not served here.
    text = readFileSync(file, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
    loaded.set(library.path, text);
  }
  return text;
}

export function sendChatLibrary(res: ServerResponse, library: ChatLibrary): void {
  sendScript(res, libraryText(library));
}
