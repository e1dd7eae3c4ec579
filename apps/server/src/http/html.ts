import type { ServerResponse } from "node:http";

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

/**
 * A small page of the hosted app: same-origin scripts only (run in the order given), never
 * cached. `style` adds the page's own rules to the shared ones.
 */
export function sendPage(
  res: ServerResponse,
  status: number,
  page: { title: string; body: string; script?: string | readonly string[]; style?: string; frameable?: boolean; frameSrc?: string },
): void {
  const scripts = typeof page.script === "string" ? [page.script] : (page.script ?? []);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>
  body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1c2330; background: #f6f7f9; }
  main { max-width: 720px; margin: 0 auto; padding: 16px; }
  h1 { font-size: 18px; margin: 0 0 12px; }
  form.stack { display: grid; gap: 10px; max-width: 360px; }
  label { display: grid; gap: 4px; font-weight: 600; }
  input, textarea, button { font: inherit; padding: 8px 10px; border-radius: 6px; border: 1px solid #b8c0cc; }
  button { background: #1f5fbf; color: white; border-color: #1f5fbf; cursor: pointer; }
  button:disabled { opacity: .6; cursor: default; }
  .error { color: #a4161a; } .muted { color: #5b6575; font-size: 13px; }
  .notice { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin: 0 0 8px; padding: 8px 12px; background: #fff6e0; border: 1px solid #f0d58c; border-radius: 8px; }
  [hidden] { display: none !important; } /* the hidden attribute wins over any display rule */
  .visually-hidden { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
${page.style ?? ""}</style></head>
<body><main>${page.body}</main>${scripts.map((src) => `<script src="${src}"></script>`).join("")}</body></html>`;
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
