import { STAFF_COOKIE } from "../../../context";

/** The httpOnly, SameSite=Strict session cookie; a max age of 0 clears it. */
export const sessionCookie = (token: string, maxAgeSeconds: number) =>
  `${STAFF_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}`;
