import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Lints snippets as if they were the server's page scripts, through apps/server's own eslint.config.js.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const eslint = new ESLint({ cwd: ROOT });

async function undefinedNames(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((message) => message.ruleId === "no-undef").map((message) => message.message);
}

describe("the pages' browser scripts", () => {
  it.each(["apps/server/src/http/embed/static/example.js", "apps/server/src/http/site/static/example.js"])(
    "%s has the browser's globals and none of Node's",
    async (file) => {
      expect(
        await undefinedNames(
          file,
          'document.getElementById("x").hidden = !sessionStorage.getItem("k");\nwindow.close();\n',
        ),
      ).toEqual([]);
      expect(await undefinedNames(file, "process.exit(1);\nrequire('fs');\n")).toEqual([
        "'process' is not defined.",
        "'require' is not defined.",
      ]);
    },
  );
});
