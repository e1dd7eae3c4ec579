import { cache } from "react";

import { load } from "./session";

/** The signed-in staff member, read once per request however many components ask. */
export const currentStaff = cache(() => load((api) => api.staff.me.query()));

export async function isAdmin(): Promise<boolean> {
  return (await currentStaff()).role === "admin";
}
