import { ActionForm } from "@/components/action-form";
import { ConfirmAction } from "@/components/confirm-action";
import { Field, SubmitButton } from "@/components/fields";
import { ReadOnlyNote, Section } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { formatTime } from "@/lib/format";
import { load } from "@/lib/session";

import { OrganizationNameField } from "../organization-name-field";
import { RENAME_TICK } from "../organization-names";
import { configureTenantAction, deleteOrganizationAction, renameOrganizationAction } from "./actions";
import { DeletionBlocked } from "./deletion-blocked";
import { SourceRowsEditor } from "./source-rows-editor";

const joined = (items: readonly string[] | undefined) => (items ?? []).join(", ");

/** Spec 2.3/2.4: what the organization's keys may select, and the defaults. */
export default async function TenantPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const [org, admin] = await Promise.all([load((api) => api.staff.organizations.get.query({ id: orgId })), isAdmin()]);
  const others = admin
    ? (await load((api) => api.staff.organizations.list.query()))
        .filter((other) => other.id !== org.id)
        .map((other) => other.name)
    : [];
  const blockers = org.deletion_blockers;
  const deletable = blockers.active_keys + blockers.active_integrations + blockers.partner_users === 0;
  const tenant = org.tenant;
  return (
    <>
      {admin ? (
        <Section title="Name and deletion">
          <div className="stack">
            <ActionForm action={renameOrganizationAction} label="Rename the organization" className="form form-inline">
              <input type="hidden" name="orgId" value={org.id} />
              <OrganizationNameField
                label="Organization name"
                existingNames={others}
                current={org.name}
                tickLabel={RENAME_TICK}
              />
              <SubmitButton>Rename</SubmitButton>
            </ActionForm>
            <div>
              {deletable ? (
                <ConfirmAction
                  action={deleteOrganizationAction}
                  label="Delete organization…"
                  question={`Delete ${org.name}? Its revoked keys (with their conversations) and disabled integrations go with it; this cannot be undone.`}
                  confirmLabel="Delete organization"
                  hidden={{ orgId: org.id, orgName: org.name }}
                />
              ) : (
                <DeletionBlocked orgId={org.id} name={org.name} blockers={blockers} />
              )}
            </div>
          </div>
        </Section>
      ) : null}
      <Section title="Tenant configuration">
        <p className="hint">
          {org.tenant_configured_at
            ? `Last saved ${formatTime(org.tenant_configured_at)}.`
            : "Not configured yet: the organization's keys can select no sources until it is saved."}{" "}
          Lists are comma-separated source ids.
        </p>
        <fieldset disabled={!admin} className="plain">
          <ActionForm action={configureTenantAction} label="Tenant configuration" className="form form-grid">
            <input type="hidden" name="orgId" value={org.id} />
            <Field label="Client name" name="clientName" defaultValue={tenant.clientName} required />
            <Field
              label="Client organization"
              name="clientOrganization"
              defaultValue={tenant.clientOrganization ?? ""}
            />
            <Field
              label="Enabled agency sources"
              name="enabledSources"
              defaultValue={joined(tenant.enabledSources)}
              hint={
                <>
                  What keys may select, e.g.{" "}
                  {org.suggested_agency_sources.map((source, index) => (
                    <span key={source}>
                      {index ? ", " : ""}
                      <code>{source}</code>
                    </span>
                  ))}
                </>
              }
            />
            <Field
              label="Base sources (default selection)"
              name="baseSources"
              defaultValue={joined(tenant.baseSources)}
              hint="Each must be enabled."
            />
            <Field label="Client source type" name="clientSourceType" defaultValue={tenant.clientSourceType ?? ""} />
            <div className="field">
              <label htmlFor="sidebar-mode">Tenant source sidebar</label>
              <select
                id="sidebar-mode"
                name="tenantSourceSidebarMode"
                defaultValue={tenant.tenantSourceSidebarMode ?? ""}
              >
                <option value="">Not set</option>
                <option value="hidden">Hidden</option>
                <option value="flat">Flat</option>
                <option value="grouped">Grouped</option>
              </select>
            </div>
            <Field
              label="Tenant source keys"
              name="tenantSourceKeys"
              defaultValue={joined(tenant.tenantSourceKeys)}
              hint="Empty: the keys of the tenant sources below."
            />
            <Field
              label="Default tenant source keys"
              name="defaultTenantSourceKeys"
              defaultValue={joined(tenant.defaultTenantSourceKeys)}
            />
            <Field
              label="Assigned shared source types"
              name="assignedSharedSourceTypes"
              defaultValue={joined(tenant.assignedSharedSourceTypes)}
            />
            <Field
              label="Default shared source types"
              name="defaultSharedSourceTypes"
              defaultValue={joined(tenant.defaultSharedSourceTypes)}
            />
            <SourceRowsEditor
              name="tenantSources"
              legend="Tenant sources"
              kind="tenant"
              initial={tenant.tenantSources ?? []}
              disabled={!admin}
            />
            <SourceRowsEditor
              name="secondarySources"
              legend="Secondary sources"
              kind="secondary"
              initial={tenant.secondarySources ?? []}
              disabled={!admin}
            />
            {admin ? <SubmitButton pendingLabel="Saving…">Save configuration</SubmitButton> : <ReadOnlyNote />}
          </ActionForm>
        </fieldset>
      </Section>
    </>
  );
}
