import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Lints snippets as if they were files of the real packages, so each package's own
// eslint.config.js (found from the file's directory) is what is checked, wiring included.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const eslint = new ESLint({ cwd: ROOT });

async function reported(file, code, ruleId) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  // One line may break several patterns (core's generated client reached by relative path): count it once.
  return [...new Set(result.messages.filter((message) => message.ruleId === ruleId).map((message) => message.line))];
}

const BOUNDARY = "@typescript-eslint/no-restricted-imports";

/** Each forbidden import on a line of its own; expects every line reported, and nothing else. */
async function expectEachRefused(file, imports) {
  expect(await reported(file, imports.join("\n"), BOUNDARY)).toEqual(imports.map((_, index) => index + 1));
}

async function expectAllAccepted(file, imports) {
  expect(await reported(file, imports.join("\n"), BOUNDARY)).toEqual([]);
}

describe("import boundaries", () => {
  it("refuse the database, core's internals and the apps in an api file", async () => {
    await expectEachRefused("packages/api/src/routers/example.ts", [
      'import { PrismaClient } from "@prisma/client";',
      'import { PrismaPg } from "@prisma/adapter-pg";',
      'import { Pool } from "pg";',
      'import { Prisma } from "../../../core/src/generated/prisma/client";',
      'import { AppError } from "../../../core/src/errors/app-error";',
      'import { something } from "@mga/core/src/keys/api-keys";',
      'import { main } from "@mga/server";',
      'import { Page } from "@mga/admin";',
    ]);
  });

  it("accept core's public entry points, tRPC and zod in an api file", async () => {
    await expectAllAccepted("packages/api/src/routers/example.ts", [
      'import { AppError } from "@mga/core/errors";',
      'import { createApiKey } from "@mga/core/keys";',
      'import { listPartnerUsers } from "@mga/core/partners/users";',
      'import { startTestDatabase } from "@mga/core/testing";',
      'import { initTRPC } from "@trpc/server";',
      'import { z } from "zod";',
      'import { toApiError } from "../errors/to-api-error";',
    ]);
  });

  it("refuse the api, the apps, tRPC and UI frameworks in a core file", async () => {
    await expectEachRefused("packages/core/src/keys/example.ts", [
      'import { appRouter } from "@mga/api";',
      'import type { AdminRouter } from "@mga/api";',
      'import { main } from "@mga/server";',
      'import { Page } from "@mga/admin";',
      'import { TRPCError } from "@trpc/server";',
      'import { NextResponse } from "next/server";',
      'import next from "next";',
      'import { useState } from "react";',
    ]);
  });

  it("accept the database and core's own generated client in a core file", async () => {
    await expectAllAccepted("packages/core/src/keys/example.ts", [
      'import { Pool } from "pg";',
      'import { PrismaPg } from "@prisma/adapter-pg";',
      'import { PrismaClient } from "../generated/prisma/client";',
      'import { z } from "zod";',
    ]);
  });

  it("let the console import only types from the api, and nothing of core or the database", async () => {
    await expectEachRefused("apps/admin/src/lib/example.ts", [
      'import { appRouter } from "@mga/api";',
      'import { openDatabase } from "@mga/core/db";',
      'import { Pool } from "pg";',
      'import { PrismaClient } from "@prisma/client";',
    ]);
    await expectAllAccepted("apps/admin/src/lib/example.ts", [
      'import type { AdminRouter } from "@mga/api";',
      'import { type AdminRouter as Router } from "@mga/api";',
      'import { createTRPCClient } from "@trpc/client";',
    ]);
  });

  it("let the console's tests open the database, and nothing else of core", async () => {
    await expectAllAccepted("apps/admin/test/e2e/example.e2e.test.ts", [
      'import pg from "pg";',
      'import { startEmbeddedPostgres } from "@mga/core/db";',
    ]);
    await expectEachRefused("apps/admin/test/e2e/example.e2e.test.ts", [
      'import { appRouter } from "@mga/api";',
      'import { createApiKey } from "@mga/core/keys";',
      'import { PrismaClient } from "@prisma/client";',
    ]);
  });

  it("keep Prisma and core's generated client out of the server", async () => {
    await expectEachRefused("apps/server/src/http/example.ts", [
      'import { PrismaClient } from "@prisma/client";',
      // check-repo-paths: relative to example.ts below, not to this file
      'import { Prisma } from "../../../../packages/core/src/generated/prisma/client";',
      'import { Prisma } from "@mga/core/src/generated/prisma/client";',
      'import { Page } from "@mga/admin";',
    ]);
    await expectAllAccepted("apps/server/src/http/example.ts", [
      'import { openDatabase } from "@mga/core/db";',
      'import { appRouter } from "@mga/api";',
    ]);
  });
});

describe("process.env", () => {
  const READS = [
    "export const port = process.env.PORT;",
    "export const { HOST } = process.env;",
    'import { env } from "node:process";',
  ];

  it("is refused outside the env modules", async () => {
    for (const file of [
      "apps/server/src/http/example.ts",
      "packages/core/src/keys/example.ts",
      "packages/api/src/example.ts",
      "apps/admin/src/lib/example.ts",
    ]) {
      const code = READS.join("\n");
      const lines = [
        ...(await reported(file, code, "no-restricted-properties")),
        ...(await reported(file, code, "no-restricted-syntax")),
      ];
      expect(lines.sort(), file).toEqual([1, 2, 3]);
    }
  });

  it("is read in the env modules and the listed exceptions", async () => {
    for (const file of [
      "apps/server/src/env.ts",
      "apps/admin/src/env.ts",
      "apps/admin/server.mjs",
      "packages/core/src/testing/global-setup.ts",
    ]) {
      expect(await reported(file, READS.join("\n"), "no-restricted-properties"), file).toEqual([]);
    }
  });
});
