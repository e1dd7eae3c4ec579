/**
 * The closed value sets (statuses, kinds, roles) for the console: the same `as const` lists the
 * API's schemas and the database use, from core's import-free entry, so a Next bundle takes
 * the lists without the server code behind `@mga/api`'s main entry.
 */
export * from "@mga/core/closed-values";
