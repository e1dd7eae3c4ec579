import { Badge, Empty, ReadOnlyNote, Section, Table, Time } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { formatTime } from "@/lib/format";
import { describeExpiry, keyBadgeValue } from "@/lib/key-expiry";
import { load } from "@/lib/session";
import Link from "next/link";

import { CreateKeyForm } from "./create-key-form";

export default async function KeysPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const [keys, catalog, admin, expiring] = await Promise.all([
    load((api) => api.staff.keys.list.query({ organization_id: orgId })),
    load((api) => api.staff.keys.scopes.query()),
    isAdmin(),
    load((api) => api.staff.keys.expiring.query({ organization_id: orgId })),
  ]);
  return (
    <>
      {expiring.length ? (
        <Section title="Expiring within 7 days">
          <p className="hint">
            Roll these keys (on each key's page) and hand the partner the new key before the old one stops working.
          </p>
          <ul data-expiring-keys>
            {expiring.map((key) => (
              <li key={key.id}>
                <Link href={`/keys/${key.id}`}>{key.name}</Link> (…{key.last_four}) expires {formatTime(key.expires_at)}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Section title="API keys">
        {keys.length === 0 ? (
          <Empty>No keys yet. Partners need one to call the API.</Empty>
        ) : (
          <Table
            headers={[
              "Name",
              "Key",
              "Scopes",
              "Rate limit",
              "Launch binding",
              "Status",
              "Created",
              "Expires",
              "Last used",
            ]}
          >
            {keys.map((key) => (
              <tr key={key.id}>
                <td>
                  <Link href={`/keys/${key.id}`}>{key.name}</Link>
                </td>
                <td>
                  <code>…{key.last_four}</code>
                </td>
                <td className="scopes-cell">{key.scopes.join(", ")}</td>
                <td>{key.rate_limit_per_minute ? `${key.rate_limit_per_minute}/min` : "Default"}</td>
                <td>
                  {key.launch_binding
                    ? `${key.launch_binding.integration}${key.launch_binding.enabled ? "" : " (disabled)"}`
                    : "—"}
                </td>
                <td>
                  <Badge value={keyBadgeValue(key)} />
                </td>
                <td>
                  <Time iso={key.created_at} />
                </td>
                <td>{describeExpiry(key.expires_at)}</td>
                <td>{formatTime(key.last_used_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section title="Create an API key">
        {admin ? (
          <CreateKeyForm
            orgId={orgId}
            scopes={catalog.scopes}
            advice={catalog.advice}
            soloScopes={catalog.solo_scopes}
            maxRateLimit={catalog.max_rate_limit_per_minute}
          />
        ) : (
          <ReadOnlyNote />
        )}
      </Section>
    </>
  );
}
