import type { Metadata } from "next";

import { AcceptInviteForm } from "./accept-invite-form";

export const metadata: Metadata = { title: "Accept an invitation · Staff console", referrer: "no-referrer" };

/** Where an invitation link lands: the invitee chooses a password and is signed in. */
export default function InvitePage() {
  return (
    <main className="sign-in">
      <h1>Staff console</h1>
      <AcceptInviteForm />
    </main>
  );
}
