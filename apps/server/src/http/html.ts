import type { ServerResponse } from "node:http";

import PAGE_STYLE from "./static/page.css?raw";
import PAGE from "./static/page.html?raw";
import SCRIPT_TAG from "./static/script-tag.html?raw";
import { fillTemplate } from "./template";

export { escapeHtml } from "./html-escape";

/**
 * A small page of the hosted app (static/page.html): same-origin scripts only (run in the
 * order given), never cached. `body` is HTML of ours (a filled template); `style` adds the
 * page's own rules to the shared ones (static/page.css).
 */
export function sendPage(
  res: ServerResponse,
  status: number,
  page: {
    title: string;
    body: string;
    script?: string | readonly string[];
    style?: string;
    frameable?: boolean;
    frameSrc?: string;
  },
): void {
  const scripts = typeof page.script === "string" ? [page.script] : (page.script ?? []);
  const html = fillTemplate(PAGE, {
    title: page.title,
    style: page.style === undefined ? PAGE_STYLE : `${PAGE_STYLE}\n${page.style}`,
    body: page.body,
    scripts: scripts.map((src) => fillTemplate(SCRIPT_TAG, { src })).join(""),
  });
  res.statusCode = status;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
  // The CSP's frame-ancestors is the rule; X-Frame-Options covers browsers that ignore it.
  if (!page.frameable) res.setHeader("X-Frame-Options", "DENY");
  res.setHeader(
    "Content-Security-Policy",
    `default-src 'self'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; ` +
      `frame-src ${page.frameSrc ?? "'self'"}; frame-ancestors ${page.frameable ? "*" : "'none'"}`,
  );
  res.end(html);
}

/** A page's own script (the pages' CSP allows only same-origin scripts, no inline ones). */
export function sendScript(res: ServerResponse, script: string): void {
  res.setHeader("Content-Type", "text/javascript; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  res.end(script);
}
