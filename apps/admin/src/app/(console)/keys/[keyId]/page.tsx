import { ActionForm } from "@/components/action-form";
import { Breadcrumbs, organizationTrail } from "@/components/breadcrumbs";
import { ConfirmAction } from "@/components/confirm-action";
import { CopyableId } from "@/components/copyable-id";
import { Field, SelectField, SubmitButton } from "@/components/fields";
import { Badge, Empty, PageHeader, ReadOnlyNote, Section, Table } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { formatTime, plural } from "@/lib/format";
import { describeExpiry, isKeyExpired, keyBadgeValue } from "@/lib/key-expiry";
import { load } from "@/lib/session";
import Link from "next/link";

import { bindLaunchAction, revokeKeyAction, setRateLimitAction, unbindLaunchAction } from "./actions";
import { EditKeyForm, RollKeyForm } from "./key-lifecycle-forms";

/** One key: its settings, launch binding and (for support) its conversations. Never the key itself. */
export default async function KeyPage({ params }: { params: Promise<{ keyId: string }> }) {
  const { keyId } = await params;
  const key = await load((api) => api.staff.keys.get.query({ id: keyId }));
  const [org, integrations, overview, admin, aliasRule, catalog] = await Promise.all([
    load((api) => api.staff.organizations.get.query({ id: key.organization_id })),
    load((api) => api.staff.integrations.list.query({ organization_id: key.organization_id })),
    load((api) => api.staff.conversations.overview.query({ key_id: key.id })),
    isAdmin(),
    load((api) => api.staff.integrations.aliasRule.query()),
    load((api) => api.staff.keys.scopes.query()),
  ]);
  // Every public name is offered; an alias not granted to this key says so (binding it is refused).
  const publicNames = integrations.flatMap((integration) => [
    { name: integration.slug, note: "" },
    ...integration.aliases.map((alias) => ({
      name: alias.slug,
      note: alias.granted_key_ids.includes(key.id) ? " (alias)" : " (alias, not granted to this key)",
    })),
  ]);
  const active = key.status === "active";
  return (
    <>
      <Breadcrumbs
        trail={[
          ...organizationTrail(org),
          { label: "API keys", href: `/organizations/${org.id}/keys` },
          { label: key.name },
        ]}
      />
      <PageHeader title={`Key: ${key.name}`}>
        <p>
          <Link href={`/keys/${key.id}/usage`}>Usage</Link> · <Link href={`/keys/${key.id}/requests`}>Request log</Link>
        </p>
      </PageHeader>
      <Section title="Key">
        <dl className="facts">
          <dt>Id</dt>
          <dd>
            <CopyableId value={key.id} />
          </dd>
          <dt>Key</dt>
          <dd>
            <code>…{key.last_four}</code> <span className="hint">(only the last four characters are kept visible)</span>
          </dd>
          <dt>Status</dt>
          <dd>
            <Badge value={keyBadgeValue(key)} /> {key.revoked_at ? `since ${formatTime(key.revoked_at)}` : null}
          </dd>
          <dt>Expires</dt>
          <dd data-key-expiry>
            {describeExpiry(key.expires_at)}
            {key.expires_at && !isKeyExpired(key.expires_at) ? (
              <span className="hint"> (refused from then on)</span>
            ) : null}
          </dd>
          {key.rolled_from_key_id ? (
            <>
              <dt>Rolled from</dt>
              <dd>
                <Link href={`/keys/${key.rolled_from_key_id}`}>{key.rolled_from_key_id}</Link>
              </dd>
            </>
          ) : null}
          <dt>Scopes</dt>
          <dd>{key.scopes.join(", ")}</dd>
          <dt>Rate limit</dt>
          <dd>{key.rate_limit_per_minute ? `${key.rate_limit_per_minute} requests per minute` : "service default"}</dd>
          <dt>Created</dt>
          <dd>{formatTime(key.created_at)}</dd>
          <dt>Last used</dt>
          <dd>{formatTime(key.last_used_at)}</dd>
        </dl>
        {admin && active ? (
          <div className="stack">
            <ActionForm action={setRateLimitAction} label="Rate limit" className="form form-inline">
              <input type="hidden" name="keyId" value={key.id} />
              <Field
                label="Rate limit (requests per minute)"
                name="rateLimit"
                type="number"
                min={1}
                defaultValue={key.rate_limit_per_minute ?? ""}
                hint="Empty: the service default."
              />
              <SubmitButton>Save rate limit</SubmitButton>
            </ActionForm>
            <ConfirmAction
              action={revokeKeyAction}
              label="Revoke key…"
              question={`Revoke "${key.name}" (…${key.last_four})? Every request with it fails from now on; this cannot be undone.`}
              confirmLabel="Revoke key"
              hidden={{ keyId: key.id }}
            />
          </div>
        ) : null}
        {!admin ? <ReadOnlyNote /> : null}
      </Section>
      {admin && active ? (
        <>
          <Section title="Edit">
            <EditKeyForm keyId={key.id} name={key.name} scopes={key.scopes} catalog={catalog.scopes} />
          </Section>
          <Section title="Roll">
            <p>
              Rolling creates a new key with the same name, scopes, rate limit, alias grants and launch binding, and
              gives this key an end date. Partners swap in the new key before then.
            </p>
            <RollKeyForm keyId={key.id} />
          </Section>
        </>
      ) : null}
      {key.scopes.includes("embed:launch") ? (
        <Section title="Launch binding">
          <p>
            {key.launch_binding
              ? `Launches for ${key.launch_binding.integration} (${key.launch_binding.enabled ? "enabled" : "disabled"}).`
              : "Not bound: this key cannot issue launches until it is bound to one public name."}
          </p>
          {admin && active ? (
            <div className="stack">
              <ActionForm action={bindLaunchAction} label="Launch binding" className="form form-inline">
                <input type="hidden" name="keyId" value={key.id} />
                <SelectField
                  label="Public name"
                  name="integration"
                  defaultValue={key.launch_binding?.integration ?? ""}
                  hint={aliasRule}
                >
                  <option value="">Choose…</option>
                  {publicNames.map(({ name, note }) => (
                    <option key={name} value={name}>
                      {name}
                      {note}
                    </option>
                  ))}
                </SelectField>
                <SubmitButton>Bind</SubmitButton>
              </ActionForm>
              {key.launch_binding?.enabled ? (
                <ConfirmAction
                  action={unbindLaunchAction}
                  label="Disable binding…"
                  question="Disable this key's launch binding? It can no longer issue launches."
                  confirmLabel="Disable binding"
                  hidden={{ keyId: key.id }}
                />
              ) : null}
            </div>
          ) : null}
        </Section>
      ) : null}
      <Section title="Conversations">
        <p>
          {plural(overview.counts.conversations, "conversation")} ({overview.counts.embedded} in the embedded chat),{" "}
          {plural(overview.counts.messages, "message")}; last activity {formatTime(overview.last_activity_at)}.
        </p>
        {overview.recent.length === 0 ? (
          <Empty>No conversations with this key yet.</Empty>
        ) : (
          <Table headers={["Conversation", "User", "Where", "Messages", "Updated"]}>
            {overview.recent.map((conversation) => (
              <tr key={conversation.id}>
                <td>
                  <Link href={`/keys/${key.id}/conversations/${conversation.id}`}>
                    {conversation.title ?? conversation.id}
                  </Link>
                </td>
                <td>{conversation.external_user_id}</td>
                <td>{conversation.embedded ? "embedded chat" : "API"}</td>
                <td>{conversation.message_count}</td>
                <td>{formatTime(conversation.updated_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
