import { AppError } from "../../errors/app-error";

/** Spec 2.1: 3-64 lowercase letters/digits, starting with a letter, single - or _ separators. */
export const INTEGRATION_SLUG = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*$/;

export function isIntegrationSlug(value: string): boolean {
  return value.length >= 3 && value.length <= 64 && INTEGRATION_SLUG.test(value);
}

export function assertIntegrationSlug(value: string, field = "integration"): string {
  if (!isIntegrationSlug(value)) {
    throw new AppError(
      "invalid_request",
      `${field}: must be 3-64 lowercase letters or digits, starting with a letter, with single - or _ separators`,
    );
  }
  return value;
}
