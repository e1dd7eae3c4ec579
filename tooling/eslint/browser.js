import globals from "globals";

/**
 * The pages' browser scripts (plain JavaScript files served as they are, e.g. apps/server's
 * src/http/…/static/*.js): classic scripts with the browser's globals and none of Node's, so a
 * `process` or a `require` there is reported instead of failing in the visitor's browser.
 */
export function browserScripts(files) {
  const noNode = Object.fromEntries(Object.keys(globals.node).map((name) => [name, "off"]));
  return [{ files, languageOptions: { sourceType: "script", globals: { ...noNode, ...globals.browser } } }];
}
