import { z } from "zod";

/** Identifier formats of spec 2.1, shared by every partner route. */
const OPAQUE_ID = /^[A-Za-z0-9._:-]+$/;

export const integrationSlugSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(
    /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/,
    "must be lowercase letters or digits, starting with a letter, with single - or _ separators",
  );

export const externalUserIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(OPAQUE_ID, "may contain only letters, digits and . _ : -")
  .meta({ description: "Opaque, immutable id of the user in the partner's system (not an email address)." });

export const externalTeamIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(OPAQUE_ID, "may contain only letters, digits and . _ : -");

/** operation ids and error codes (spec 2.1, 2.10). */
export const opaqueIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(OPAQUE_ID, "may contain only letters, digits and . _ : -");

export const cursorSchema = z.string().min(1).max(1024);

/** Query booleans: `true`/`false` (z.boolean would read "false" as true). */
export const queryBooleanSchema = z.stringbool().meta({ type: "boolean" } as never);
