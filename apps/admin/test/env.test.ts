import { spawn } from "node:child_process";
import path from "node:path";
import { parseConsoleEnv } from "@/env";
import { describe, expect, it } from "vitest";

describe("the console's configuration", () => {
  it("has defaults for a local run and refuses a bad value with the variable's name", () => {
    expect(parseConsoleEnv({})).toEqual({ ADMIN_API_URL: "http://127.0.0.1:3001", ADMIN_COOKIE_SECURE: "false" });
    expect(
      parseConsoleEnv({ ADMIN_API_URL: "https://admin-api.internal:8443/", ADMIN_COOKIE_SECURE: "true" }).ADMIN_API_URL,
    ).toBe("https://admin-api.internal:8443");
    expect(() => parseConsoleEnv({ ADMIN_API_URL: "not-a-url" })).toThrow(/ADMIN_API_URL/);
    expect(() => parseConsoleEnv({ ADMIN_COOKIE_SECURE: "yes" })).toThrow(/ADMIN_COOKIE_SECURE/);
    // The signing key is optional (the API then counts the console's own address), but never malformed.
    expect(parseConsoleEnv({ ADMIN_FORWARDING_KEY: "" }).ADMIN_FORWARDING_KEY).toBeUndefined();
    expect(() => parseConsoleEnv({ ADMIN_FORWARDING_KEY: "the SECRET_KEY by mistake, not its derived key" })).toThrow(
      /ADMIN_FORWARDING_KEY/,
    );
  });

  it("stops the console's server at start, with the reason, when a value is bad", async () => {
    const child = spawn(process.execPath, [path.resolve(import.meta.dirname, "../server.mjs")], {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { ...process.env, PORT: "0", ADMIN_API_URL: "not-a-url" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(1);
    expect(output).toContain("invalid console configuration");
    expect(output).toContain("ADMIN_API_URL");
  });
});
