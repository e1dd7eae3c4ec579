import { MgaError, nameErrorClass } from "./mga-error";

/** A webhook whose signature, timestamp or headers do not verify: answer it 400 and do not act on it. */
export class WebhookVerificationError extends MgaError {
  static {
    nameErrorClass(this, "WebhookVerificationError");
  }
}
