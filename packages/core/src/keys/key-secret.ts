// crypto.hash: the one-shot digest, a third of createHash().update().digest()'s cost (two per request).
import { hash } from "node:crypto";

import { randomBase62 } from "../ids/new-id";

/**
 * API key format: `mga_sk_` + 32 random base62 characters (190 bits) + a 6-character
 * checksum of those. The typed prefix makes a leaked key recognisable to secret scanners;
 * the checksum lets us reject typos and garbage without a database round trip.
 *
 * Only a SHA-256 hash is stored. A keyed hash (HMAC) adds nothing for secrets of this
 * entropy, and a plain hash keeps keys valid if a server secret were ever rotated.
 */
const PREFIX = "mga_sk_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export interface GeneratedKey {
  plaintext: string;
  secretHash: string;
  lastFour: string;
}

export function generateApiKey(): GeneratedKey {
  const random = randomBase62(RANDOM_LENGTH);
  const plaintext = `${PREFIX}${random}${checksum(random)}`;
  return { plaintext, secretHash: hashApiKey(plaintext), lastFour: plaintext.slice(-4) };
}

export function hashApiKey(plaintext: string): string {
  return hash("sha256", plaintext, "hex");
}

/** True when the string has our key's shape and a valid checksum. */
export function isWellFormedApiKey(candidate: string): boolean {
  return hasApiKeyShape(candidate) && hasValidChecksum(candidate);
}

/** Our key's prefix and length: what is checked before hashing a presented string. */
export function hasApiKeyShape(candidate: string): boolean {
  return candidate.length === PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH && candidate.startsWith(PREFIX);
}

/** The checksum of a string of our key's shape (hasApiKeyShape) matches its random part. */
export function hasValidChecksum(candidate: string): boolean {
  const random = candidate.slice(PREFIX.length, PREFIX.length + RANDOM_LENGTH);
  return checksum(random) === candidate.slice(-CHECKSUM_LENGTH);
}

function checksum(random: string): string {
  let value = Number.parseInt(hash("sha256", random, "hex").slice(0, 8), 16);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i += 1) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}
