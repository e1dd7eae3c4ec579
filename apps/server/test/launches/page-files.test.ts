import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createTestDatabase, type TestDatabase } from "@mga/core/testing";

import { startServerProcess, type ServerProcess } from "../support/server-process";

/**
 * The hosted chat's and the built-in site's browser scripts and styles are files of their own
 * (src/http/…/static/), which eslint and prettier read; the built server (dist/main.js, as a
 * deploy runs it) serves exactly their text.
 */
const HTTP = path.resolve(import.meta.dirname, "../../src/http");
const file = (relative: string) => readFileSync(path.join(HTTP, relative), "utf8");

let t: TestDatabase;
let server: ServerProcess;
beforeAll(async () => {
  t = await createTestDatabase();
  server = await startServerProcess({ databaseUrl: t.url, upstreamUrl: "http://127.0.0.1:9" });
}, 60_000);
afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  await t?.drop();
});

describe("the pages' static files", () => {
  it.each([
    ["/embed/assets/chat.js", "embed/static/chat.js"],
    ["/site/login.js", "site/static/login.js"],
    ["/site/token.js", "site/static/token.js"],
    ["/site/password.js", "site/static/password.js"],
  ])("%s is %s as it is on disk", async (route, source) => {
    const res = await fetch(`${server.baseUrl}${route}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await res.text()).toBe(file(source));
  });

  it("the chat page is static/chat.html with its own styles from static/chat.css, in the shared page of static/page.html", async () => {
    const res = await fetch(`${server.baseUrl}/embed/partner/acme-los`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(file("embed/static/chat.css"));
    expect(html).toContain(file("static/page.css"));
    expect(html).toContain(`<main>${file("embed/static/chat.html").trimEnd()}</main>`);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
  });

  it.each([
    ["/site/login", "site/static/login.html"],
    ["/site/password-reset", "site/static/reset.html"],
    ["/site/password-setup", "site/static/password.html"],
    ["/site/verify-email", "site/static/verify.html"],
  ])("%s is the page of %s", async (route, source) => {
    const res = await fetch(`${server.baseUrl}${route}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    // Every line of the template without a placeholder is in the page, and no placeholder is left.
    for (const line of file(source)
      .split("\n")
      .filter((text) => text.trim() !== "" && !text.includes("{{")))
      expect(html).toContain(line.trim());
    expect(html).not.toContain("{{");
  });
});
