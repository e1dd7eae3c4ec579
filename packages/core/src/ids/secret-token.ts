import { hash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Secrets handed to a browser or a mailbox (launch codes, session and chat tokens,
 * verification links): random, URL-safe, and stored only as a SHA-256 hash. High-entropy
 * random tokens need no slow hash: nothing can be guessed from the digest.
 */
export function newSecretToken(bytes = 24): string {
  return randomBytes(bytes).toString("base64url");
}

export function hashSecret(token: string): string {
  return hash("sha256", token, "hex");
}

/**
 * Whether a presented secret equals the expected one, in constant time. Both are hashed first,
 * so the comparison takes as long whatever was presented and not even its length shows.
 */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => hash("sha256", value, "buffer");
  return timingSafeEqual(digest(presented), digest(expected));
}
