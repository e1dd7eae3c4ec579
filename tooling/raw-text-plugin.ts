import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Options } from "tsup";

/** esbuild's plugin type, as tsup takes it (esbuild itself is tsup's dependency, not ours). */
type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

/**
 * `import text from "./static/chat.js?raw"`: the file's text as a string, as Vite (and so
 * vitest) reads the same import. The pages' HTML, CSS and browser scripts stay real files that
 * the linter and the formatter read, and the build ships their bytes inside the bundle.
 */
export function rawText(): Plugin {
  return {
    name: "raw-text",
    setup(build) {
      // The path keeps its `?raw`: tsup's own CSS plugin claims any path ending in .css, whatever its namespace.
      build.onResolve({ filter: /\?raw$/ }, (args) => ({
        path: path.resolve(args.resolveDir, args.path),
        namespace: "raw-text",
      }));
      build.onLoad({ filter: /\?raw$/, namespace: "raw-text" }, async (args) => {
        const file = args.path.slice(0, -"?raw".length);
        return { contents: await readFile(file, "utf8"), loader: "text", watchFiles: [file] };
      });
    },
  };
}
