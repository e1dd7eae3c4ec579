// eslint-disable-next-line no-restricted-syntax -- fixture: importing env from node:process is reading it too
import { env } from "node:process";

// Lint fixture: breaks a rule on purpose, each line silenced by a directive that the lint run (reportUnusedDisableDirectives: error) fails on if the rule stops firing. Linted only: outside tsconfig's include, never built or run.
// Configuration is read once, validated, in src/env.ts; everything else takes it from there.
// eslint-disable-next-line no-restricted-properties -- fixture: raw process.env outside the env module
export const port = process.env.PORT;
// eslint-disable-next-line no-restricted-properties -- fixture: destructuring process.env is reading it too
export const { HOST } = process.env;

export const host = env.HOST;
