import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random base62 string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Stripe-style typed identifiers: `org_…`, `key_…`, so an id says what it names. */
export type IdPrefix =
  "org" | "key" | "req" | "conv" | "msg" | "int" | "ali" | "team" | "pu" | "sa" | "ses" | "ntf" | "chat" | "op" | "imp" | "aud" | "lch" | "es" | "gr" | "ct" | "stf" | "sts" | "sti" | "spt";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}
