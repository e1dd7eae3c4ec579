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

/** The alphabet's character codes, written into `scratch` by index. */
const CODES = Buffer.from(ALPHABET, "latin1");

/**
 * Where an id's characters are written before they become one string: concatenating them one
 * by one made a string per character, about 600 bytes of garbage per id, and a streamed answer
 * makes several ids (a burst of a thousand streams allocated 2.6 MiB of them).
 */
const scratch = Buffer.alloc(64);

/** Writes random base62 characters into `out[from..to)`; rejection sampling keeps every character equally likely. */
function writeRandom(out: Buffer, from: number, to: number): void {
  for (let at = from; at < to;) {
    const byte = randomByte();
    if (byte < 248) out[at++] = CODES[byte % 62] as number;
  }
}

/** Random base62 string. */
export function randomBase62(length: number): string {
  const out = length <= scratch.length ? scratch : Buffer.allocUnsafe(length);
  writeRandom(out, 0, length);
  return out.toString("latin1", 0, length);
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
  const at = writePrefix(prefix);
  writeRandom(scratch, at, at + 22);
  return scratch.toString("latin1", 0, at + 22);
}

/** Writes `prefix_` at the start of `scratch`; returns where the rest goes. */
function writePrefix(prefix: IdPrefix): number {
  const length = scratch.write(prefix, 0, "latin1");
  scratch[length] = 0x5f; // "_"
  return length + 1;
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
  const at = writePrefix(prefix);
  for (let rest = now, i = TIME_DIGITS - 1; i >= 0; i--, rest = Math.floor(rest / 62))
    scratch[at + i] = CODES[rest % 62] as number;
  writeRandom(scratch, at + TIME_DIGITS, at + 22);
  return scratch.toString("latin1", 0, at + 22);
}
