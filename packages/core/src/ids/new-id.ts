import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * CSPRNG bytes drawn in blocks, each byte used once: one randomFillSync per 4 KiB instead of a
 * randomBytes call per id (a streamed answer makes four ids; a burst of them paid ~20 µs each).
 * The same generator as randomBytes, the way Node's own randomUUID buffers it.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++] as number;
}

/** Random base62 string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** Stripe-style typed identifiers: `org_…`, `key_…`, so an id says what it names. */
export type IdPrefix =
  | "org"
  | "key"
  | "req"
  | "conv"
  | "msg"
  | "int"
  | "ali"
  | "team"
  | "pu"
  | "sa"
  | "ses"
  | "ntf"
  | "chat"
  | "op"
  | "imp"
  | "aud"
  | "lch"
  | "es"
  | "gr"
  | "ct"
  | "stf"
  | "sts"
  | "sti"
  | "spt"
  | "ans"
  | "evt"
  | "we"
  | "whd";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}

/** Base62 digits of the time part: 62^8 milliseconds reach the year 8900. */
const TIME_DIGITS = 8;

/**
 * A typed identifier of the same shape (`req_` and 22 base62 characters) whose first 8
 * characters are the creation time in milliseconds: ids made later sort after (byte order, as
 * the alphabet is in ASCII order). For the request log's primary key, written thousands of times
 * a second: a B-tree takes time-ordered keys at its right edge, where random ones dirty a page
 * anywhere in the index, and each page dirtied for the first time since a checkpoint is written
 * whole to the WAL. The other 14 characters (83 bits) are random, so ids stay unguessable.
 */
export function newTimeOrderedId(prefix: IdPrefix, now = Date.now()): string {
  let time = "";
  for (let rest = now, i = 0; i < TIME_DIGITS; i++, rest = Math.floor(rest / 62)) time = ALPHABET[rest % 62] + time;
  return `${prefix}_${time}${randomBase62(22 - TIME_DIGITS)}`;
}
