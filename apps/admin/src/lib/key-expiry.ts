import { formatTime } from "./format";

/** A key's expiry as the console shows it; the API refuses the key from that moment on (401). */
export function isKeyExpired(expiresAt: string | null, now = Date.now()): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
}

/** The status badge's value: `expired` is not an API status (the key stays `active`) but is what staff need to see. */
export function keyBadgeValue(key: { status: string; expires_at: string | null }): string {
  return key.status === "active" && isKeyExpired(key.expires_at) ? "expired" : key.status;
}

export function describeExpiry(expiresAt: string | null): string {
  if (expiresAt === null) return "Never";
  return isKeyExpired(expiresAt) ? `Expired ${formatTime(expiresAt)}` : formatTime(expiresAt);
}

/** The old key's remaining life a roll offers (seconds): the API takes 0 (now) to seven days. */
export const ROLL_OVERLAPS: ReadonlyArray<{ seconds: number; label: string }> = [
  { seconds: 0, label: "Now (the old key stops at once)" },
  { seconds: 3_600, label: "In 1 hour" },
  { seconds: 86_400, label: "In 24 hours" },
  { seconds: 3 * 86_400, label: "In 3 days" },
  { seconds: 7 * 86_400, label: "In 7 days" },
];

/** A date input's value (YYYY-MM-DD) as the instant the key stops working: the start of that day, UTC. */
export function expiryFromDate(date: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`))
    ? `${date}T00:00:00.000Z`
    : undefined;
}
