import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from "node:crypto";

/**
 * What the one server secret (SECRET_KEY) protects. Each purpose gets its own key derived with
 * HKDF, so a value made for one purpose (a cursor's MAC) can never pass for another (a sealed
 * replay). `console-forwarding`: the console's signature on the visitor address it forwards.
 * `webhook-secret`: endpoints' signing secrets, sealed (the service must sign with them).
 */
export type SecretPurpose =
  "cursor" | "stored-response" | "notification-link" | "console-forwarding" | "webhook-secret";

/** Purposes whose MACs another process makes, which is given that purpose's key instead of SECRET_KEY. */
export type ExportedPurpose = Extract<SecretPurpose, "console-forwarding">;

export interface ServerSecrets {
  /** A MAC of `data` (HMAC-SHA256, base64url). */
  sign(purpose: SecretPurpose, data: string): string;
  verify(purpose: SecretPurpose, data: string, mac: string): boolean;
  /** AES-256-GCM with a random nonce: `v1.<nonce>.<ciphertext>.<tag>`, base64url parts. */
  seal(purpose: SecretPurpose, plaintext: string): string;
  /** The plaintext, or undefined when `sealed` was not sealed for this purpose with this key. */
  open(purpose: SecretPurpose, sealed: string): string | undefined;
  /** The MAC key of a purpose another process signs for (the console), so it never needs SECRET_KEY itself. */
  macKey(purpose: ExportedPurpose): Buffer;
}

/** Enough characters for 190+ bits however it was generated (base64 of 32 random bytes is 43). */
export const MIN_SECRET_KEY_LENGTH = 32;

export function serverSecrets(secretKey: string): ServerSecrets {
  if (secretKey.length < MIN_SECRET_KEY_LENGTH)
    throw new Error(`SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters`);
  // Kept as KeyObjects: given a Buffer, every createHmac or createCipheriv builds a key object
  // of its own first, five times the cost of the MAC of a cursor (32 against 6 µs here).
  const keys = new Map<string, KeyObject>();
  const keyFor = (purpose: SecretPurpose, use: "mac" | "seal") => {
    const name = `${purpose}/${use}`;
    let key = keys.get(name);
    if (!key) {
      key = createSecretKey(Buffer.from(hkdfSync("sha256", secretKey, "mga-server-secrets", name, 32)));
      keys.set(name, key);
    }
    return key;
  };
  const mac = (purpose: SecretPurpose, data: string) =>
    createHmac("sha256", keyFor(purpose, "mac")).update(data).digest();

  return {
    sign: (purpose, data) => mac(purpose, data).toString("base64url"),
    verify(purpose, data, presented) {
      const expected = mac(purpose, data);
      const given = Buffer.from(presented, "base64url");
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    seal(purpose, plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", keyFor(purpose, "seal"), nonce);
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return ["v1", nonce, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    open(purpose, sealed) {
      const [version, nonce, ciphertext, tag] = sealed.split(".");
      if (version !== "v1" || nonce === undefined || ciphertext === undefined || tag === undefined) return undefined;
      try {
        const decipher = createDecipheriv("aes-256-gcm", keyFor(purpose, "seal"), Buffer.from(nonce, "base64url"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
          "utf8",
        );
      } catch {
        return undefined;
      }
    },
    macKey: (purpose) => keyFor(purpose, "mac").export(),
  };
}
