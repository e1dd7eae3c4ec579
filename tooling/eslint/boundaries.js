import { defineConfig } from "eslint/config";

/**
 * Which package may import what (docs/architecture.md: core is the domain without HTTP, api
 * the wire layer over it, the apps host them). One config per package, each listing every
 * restriction of that package, because a later `no-restricted-imports` setting replaces an
 * earlier one instead of adding to it.
 *
 * typescript-eslint's version of `no-restricted-imports` (ESLint's rule plus
 * `allowTypeImports`) is used everywhere, because the console may import the API's router
 * *type* (typed tRPC) but none of its code.
 */
const RULE = "@typescript-eslint/no-restricted-imports";

const ALL_FILES = ["**/*.{js,mjs,cjs,ts,mts,cts,tsx}"];

const apps = [
  { name: "@mga/server", message: "Packages never import the apps: the server depends on them, not the reverse." },
  { name: "@mga/admin", message: "Nothing imports the console: it is a leaf that talks to the API over tRPC." },
];

const prisma = {
  group: ["@prisma/*"],
  message: "Only @mga/core talks to the database: call a core domain function instead.",
};

/** The generated Prisma client and core's files reached past its entry points (`@mga/core/<area>`, one per area). */
const coreInternals = [
  {
    regex: "^@mga/core/(src|dist|prisma|generated)(/|$)",
    message: "Import a core area's entry point (@mga/core/<area>): the files behind it are internal.",
  },
  {
    regex: "^\\.{1,2}/(.*/)?core/(src|prisma|dist)(/|$)",
    message: "Import a core area's entry point (@mga/core/<area>), never core's files by relative path.",
  },
  {
    regex: "(^|/)generated(/|$)",
    message: "The generated Prisma client is core's: call a core domain function instead.",
  },
];

const restrict = (name, { paths = [], patterns = [] }, files = ALL_FILES) =>
  defineConfig({
    name: `@mga/eslint-config/boundaries/${name}`,
    files,
    rules: { [RULE]: ["error", { paths, patterns }] },
  });

/** The console's own rules: it talks typed tRPC to the admin listener, so it needs the router's type only. */
const adminRules = ({ database }) => ({
  paths: [
    {
      name: "@mga/api",
      allowTypeImports: true,
      message: "The console imports only types from @mga/api (`import type`): it reaches the API over tRPC.",
    },
    ...(database ? [] : [{ name: "pg", message: "The console never talks to the database: ask the API over tRPC." }]),
  ],
  patterns: [
    {
      group: database ? ["@mga/core/*", "!@mga/core/db"] : ["@mga/core/*"],
      allowTypeImports: true,
      message: "The console never runs core's code: ask the API over tRPC.",
    },
    { ...prisma, message: "The console never talks to the database: ask the API over tRPC." },
    ...coreInternals,
  ],
});

export const importBoundaries = {
  /** The domain: no HTTP, no tRPC, no UI, and nothing that sits above it. */
  core: restrict("core", {
    paths: [
      { name: "@mga/api", message: "core is below api: move the shared piece into core instead." },
      ...apps,
      { name: "next", message: "core has no UI or HTTP framework." },
      { name: "react", message: "core has no UI." },
    ],
    patterns: [
      { group: ["@mga/api/*"], message: "core is below api: move the shared piece into core instead." },
      { group: ["@trpc/*"], message: "core has no transport: domain functions take plain inputs and throw AppError." },
      { group: ["next/*", "react/*", "react-dom", "react-dom/*"], message: "core has no UI or HTTP framework." },
    ],
  }),

  /** The wire layer: reaches the database only through core's domain functions. */
  api: restrict("api", {
    paths: [
      { name: "pg", message: "Only @mga/core talks to the database: call a core domain function instead." },
      ...apps,
    ],
    patterns: [prisma, ...coreInternals],
  }),

  /** The host: wires core and api together; the database stays behind core. */
  server: restrict("server", {
    paths: [apps[1]],
    patterns: [prisma, ...coreInternals],
  }),

  /**
   * The staff console; its browser tests may also open the service's database (pg, core's db
   * area), to stand in for a slow one (a locked table), never to reach past the console's API.
   */
  admin: [
    ...restrict("admin", adminRules({ database: false })),
    ...restrict("admin-tests", adminRules({ database: true }), ["test/**/*.ts"]),
  ],

  /** The partners' SDK: published on its own, it reaches the service over HTTP only (types come from the generated OpenAPI types). */
  sdk: restrict("sdk", {
    patterns: [
      {
        group: ["@mga/*", "!@mga/eslint-config", "!@mga/eslint-config/*"],
        message:
          "The SDK is installed by partners without the monorepo: talk to the API over HTTP and use the generated types.",
      },
    ],
  }),

  /** The stand-in upstream assistant: a separate service that shares only core's helpers. */
  assistant: restrict("assistant", {
    paths: [
      {
        name: "@mga/api",
        message: "The assistant is a separate upstream service: it does not use the partner API's code.",
      },
      ...apps,
    ],
    patterns: [prisma, ...coreInternals],
  }),
};
