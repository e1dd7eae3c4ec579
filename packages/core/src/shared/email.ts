import { z } from "zod";

import { AppError } from "../errors/app-error";

/** The longest address a mailbox can have (RFC 5321's path limit), as every input accepts it. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * The one rule for an email address, whichever path sets one: the partner API, the staff
 * console, the operator CLI, bulk imports and staff invitations. The API's schemas use this
 * schema itself, and core checks it again where a path reaches core without the API (the CLI),
 * so text that is not an address never becomes someone's site login or a link's recipient.
 */
export const emailAddressSchema = z
  .email({ error: "must be an email address, like name@example.com" })
  .max(EMAIL_MAX_LENGTH);

/** An email address as the service stores and compares it: trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Checks `raw` (trimmed) against the one rule and returns it normalized; a 400 naming `field` otherwise. */
export function checkedEmail(raw: string, field = "email"): string {
  const email = normalizeEmail(raw);
  const result = emailAddressSchema.safeParse(email);
  if (!result.success)
    throw new AppError(
      "invalid_request",
      `${field}: ${result.error.issues[0]?.message ?? "must be an email address"}`,
      { field },
    );
  return email;
}
