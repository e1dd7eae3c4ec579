"use client";

import { CopyButton } from "@/components/copy-button";
import { useFormOutcome } from "@/components/form-state-context";
import type { FormState } from "@/lib/form-state";
import { useState } from "react";

/**
 * Every invitation link created on this page since it was opened, newest first, each named by
 * whom it invites: creating a second invitation must not take the first one's link off the
 * page before it was sent. The links live only in this page's memory (the API keeps hashes).
 */
export function InvitationLinks({ toLink }: { toLink: (token: string) => string }) {
  const { state } = useFormOutcome();
  const [links, setLinks] = useState<Array<{ from: FormState; email: string; link: string }>>([]);
  // A new result with a token adds its link (during render: React's way to derive from a change).
  if (state.status === "ok" && state.secret && !links.some((entry) => entry.from === state)) {
    setLinks([{ from: state, email: state.secretName ?? "", link: toLink(state.secret) }, ...links]);
  }
  if (links.length === 0) return null;
  return (
    <div className="stack" data-invitation-links>
      {links.map(({ email, link }) => (
        <div key={link} className="secret" role="region" aria-label={`Invitation link for ${email}`}>
          <p>
            <strong>Send this link to {email}.</strong> It works once, for 72 hours, and is shown only on this page.
          </p>
          <code className="secret-value" data-secret>
            {link}
          </code>
          <CopyButton value={link} label="Copy link" />
        </div>
      ))}
    </div>
  );
}
