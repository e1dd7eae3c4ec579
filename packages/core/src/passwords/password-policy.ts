import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

import { AppError } from "../errors/app-error";

/**
 * The one rule for every password a person chooses here (staff accounts, the built-in site
 * accounts): at least 12 characters, at most 256, and not guessable from the common-password,
 * name and word lists of zxcvbn (score 3 of 4: "safely unguessable"), whose feedback says why.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
const MIN_SCORE = 3;

/** Shown beside password inputs; the check below is the authority. */
export const PASSWORD_RULE = `At least ${MIN_PASSWORD_LENGTH} characters, and not a common or easily guessed password.`;

let checker: Promise<ZxcvbnFactory> | undefined;

/**
 * Loading (decompressing) the dictionaries takes a few hundred milliseconds and tens of
 * megabytes: once, at first use, not when the module is imported (every CLI command and the
 * server's start would pay it). Call it only after cheaper checks (a token, a throttle) passed.
 */
async function strength(password: string) {
  checker ??= loadChecker();
  return (await checker).check(password);
}

async function loadChecker(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory }, common, english] = await Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]);
  return new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    // Matching costs grow fast with length (seconds for 256 random characters, blocking the
    // process); the first 32 characters say enough about a password's strength.
    maxLength: 32,
  });
}

/** Throws 400 `invalid_request` naming the field when `password` breaks the rule. */
export async function assertAcceptablePassword(password: string, field = "password"): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new AppError("invalid_request", `${field}: at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new AppError("invalid_request", `${field}: at most ${MAX_PASSWORD_LENGTH} characters`);
  const result = await strength(password);
  if (result.score < MIN_SCORE) {
    const why = result.feedback.warning ?? "it is too easy to guess";
    throw new AppError(
      "invalid_request",
      `${field}: too easy to guess (${why.replace(/\.$/, "").toLowerCase()}); ${result.feedback.suggestions[0]?.replace(/\.$/, "").toLowerCase() ?? "add another word or two"}`,
    );
  }
}
