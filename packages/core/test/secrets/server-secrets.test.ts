import { createCipheriv, createHmac, hkdfSync } from "node:crypto";
import { describe, expect, it } from "vitest";

import { serverSecrets } from "../../src/secrets/server-secrets";

/**
 * The keys derived from SECRET_KEY are part of what is already out there: cursors partners hold,
 * sealed replays and webhook secrets in the database, the console's forwarding key in its
 * configuration. However the service keeps them in memory, they must stay the same bytes.
 */
const SECRET_KEY = "a test secret key of at least thirty-two characters";
const secrets = serverSecrets(SECRET_KEY);
const derived = (name: string) => Buffer.from(hkdfSync("sha256", SECRET_KEY, "mga-server-secrets", name, 32));

describe("server secrets", () => {
  it("gives the console the HKDF-derived key of its purpose, as bytes", () => {
    const key = secrets.macKey("console-forwarding");
    expect(Buffer.isBuffer(key)).toBe(true);
    expect(key.equals(derived("console-forwarding/mac"))).toBe(true);
  });

  it("signs with HMAC-SHA256 under the purpose's derived key, so MACs issued before still verify", () => {
    const issued = createHmac("sha256", derived("cursor/mac")).update("payload").digest("base64url");
    expect(secrets.sign("cursor", "payload")).toBe(issued);
    expect(secrets.verify("cursor", "payload", issued)).toBe(true);
    expect(secrets.verify("stored-response", "payload", issued)).toBe(false);
    expect(secrets.verify("cursor", "payload!", issued)).toBe(false);
  });

  it("opens what was sealed under the purpose's derived key, and only for that purpose", () => {
    const nonce = Buffer.alloc(12, 7);
    const cipher = createCipheriv("aes-256-gcm", derived("webhook-secret/seal"), nonce);
    const ciphertext = Buffer.concat([cipher.update("whsec_old", "utf8"), cipher.final()]);
    const stored = ["v1", nonce, ciphertext, cipher.getAuthTag()].map((part) =>
      typeof part === "string" ? part : part.toString("base64url"),
    );
    expect(secrets.open("webhook-secret", stored.join("."))).toBe("whsec_old");
    expect(secrets.open("stored-response", stored.join("."))).toBeUndefined();
    expect(secrets.open("webhook-secret", secrets.seal("webhook-secret", "round trip"))).toBe("round trip");
  });
});
