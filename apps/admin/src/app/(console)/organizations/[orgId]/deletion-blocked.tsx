import Link from "next/link";

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Why Delete is not offered, and where to clear each blocker: an organization goes only once
 * its keys are revoked, its integrations disabled and their partner users deleted.
 */
export function DeletionBlocked({
  orgId,
  name,
  blockers,
}: {
  orgId: string;
  name: string;
  blockers: { active_keys: number; active_integrations: number; partner_users: number };
}) {
  const steps = [
    blockers.active_keys
      ? {
          text: `${count(blockers.active_keys, "active API key", "active API keys")}: revoke ${blockers.active_keys === 1 ? "it" : "them"}`,
          href: `/organizations/${orgId}/keys`,
          link: "API keys",
        }
      : null,
    blockers.active_integrations
      ? {
          text: `${count(blockers.active_integrations, "active integration", "active integrations")}: disable ${blockers.active_integrations === 1 ? "it" : "them"}`,
          href: `/organizations/${orgId}/integrations`,
          link: "Integrations",
        }
      : null,
    blockers.partner_users
      ? {
          text: `${count(blockers.partner_users, "partner user", "partner users")}: delete them`,
          href: `/organizations/${orgId}/integrations`,
          link: "Integrations",
        }
      : null,
  ].filter((step) => step !== null);
  return (
    <div className="notice-box" data-deletion-blocked>
      <p>{name} cannot be deleted yet. It still has:</p>
      <ul>
        {steps.map((step) => (
          <li key={step.text}>
            {step.text} (<Link href={step.href}>{step.link}</Link>).
          </li>
        ))}
      </ul>
      <p className="hint">
        Once nothing is left, Delete is offered here: revoked keys and disabled integrations go with the organization.
      </p>
    </div>
  );
}
