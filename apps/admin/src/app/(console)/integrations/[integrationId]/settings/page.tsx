import { ActionForm } from "@/components/action-form";
import { ConfirmAction } from "@/components/confirm-action";
import { Field, SubmitButton } from "@/components/fields";
import { Badge, Empty, ReadOnlyNote, Section, Table } from "@/components/ui";
import { isAdmin } from "@/lib/current-staff";
import { load } from "@/lib/session";
import Link from "next/link";

import {
  addAliasAction,
  removeAliasAction,
  setAliasGrantAction,
  setChatAnswerLimitAction,
  setIntegrationStatusAction,
} from "./actions";

/** Status, the users' chat limit, public aliases and which keys each alias is granted to; launch keys bound here. */
export default async function IntegrationSettingsPage({ params }: { params: Promise<{ integrationId: string }> }) {
  const { integrationId } = await params;
  const integration = await load((api) => api.staff.integrations.get.query({ id: integrationId }));
  const [keys, admin, aliasRule, chatLimits] = await Promise.all([
    load((api) => api.staff.keys.list.query({ organization_id: integration.organization_id })),
    isAdmin(),
    load((api) => api.staff.integrations.aliasRule.query()),
    load((api) => api.staff.integrations.chatAnswerLimits.query()),
  ]);
  const perUser = integration.chat_answers_per_user_per_minute;
  const activeKeys = keys.filter((key) => key.status === "active");
  const publicNames = new Set([integration.slug, ...integration.aliases.map((alias) => alias.slug)]);
  const launchKeys = keys.filter((key) => key.launch_binding && publicNames.has(key.launch_binding.integration));
  const hidden = { integrationId: integration.id };
  return (
    <>
      <Section title="Status">
        <p>
          <Badge value={integration.status} />{" "}
          {integration.status === "active"
            ? "Partner requests naming this integration are served."
            : "Every partner request naming this integration is refused (403)."}
        </p>
        {admin ? (
          <ConfirmAction
            action={setIntegrationStatusAction}
            {...(integration.status === "active"
              ? {
                  label: "Disable integration…",
                  question: `Disable ${integration.slug}? Provisioning, lifecycle calls and launches for it are refused until it is enabled again.`,
                  confirmLabel: "Disable integration",
                  hidden: { ...hidden, status: "disabled" },
                }
              : {
                  label: "Enable integration…",
                  question: `Enable ${integration.slug}? Partner requests naming it are served again.`,
                  confirmLabel: "Enable integration",
                  hidden: { ...hidden, status: "active" },
                  tone: "normal" as const,
                })}
          />
        ) : (
          <ReadOnlyNote />
        )}
      </Section>
      <Section title="Chat answers per user">
        <p data-chat-answer-limit>
          {perUser === null
            ? `${chatLimits.default_per_user_per_minute} answers per minute for each user (the service default).`
            : `${perUser} answers per minute for each user (set for this integration; the service default is ${chatLimits.default_per_user_per_minute}).`}
        </p>
        <p className="hint">
          Each answer in the hosted chat counts against its user&apos;s own limit first, then against the launch
          key&apos;s rate limit, which all of the partner&apos;s users share: one user cannot use up the key&apos;s
          budget for the others. A user over their own limit is told to slow down; over the key&apos;s, that the
          organization&apos;s assistant is busy.
        </p>
        {admin ? (
          <ActionForm action={setChatAnswerLimitAction} label="Chat answers per user" className="form form-inline">
            <input type="hidden" name="integrationId" value={integration.id} />
            <Field
              label="Answers per user per minute"
              name="chatAnswersPerUser"
              type="number"
              min={1}
              max={chatLimits.max_per_user_per_minute}
              defaultValue={perUser ?? ""}
              hint={`1 to ${chatLimits.max_per_user_per_minute}; empty: the service default (${chatLimits.default_per_user_per_minute}).`}
            />
            <SubmitButton>Save chat limit</SubmitButton>
          </ActionForm>
        ) : null}
      </Section>
      <Section title="Aliases and grants">
        <p className="hint">{aliasRule}</p>
        {integration.aliases.length === 0 ? <Empty>No aliases.</Empty> : null}
        {integration.aliases.map((alias) => (
          <div key={alias.slug} className="alias">
            <h3>
              <code>{alias.slug}</code>
            </h3>
            {activeKeys.length === 0 ? (
              <Empty>No active keys to grant it to.</Empty>
            ) : (
              <Table headers={["Key", "Granted", admin && "Change"]}>
                {activeKeys.map((key) => {
                  const granted = alias.granted_key_ids.includes(key.id);
                  return (
                    <tr key={key.id}>
                      <td>
                        <Link href={`/keys/${key.id}`}>{key.name}</Link> <code>…{key.last_four}</code>
                      </td>
                      <td>{granted ? "Yes" : "No"}</td>
                      {admin ? (
                        <td>
                          <ActionForm
                            action={setAliasGrantAction}
                            label={`${granted ? "Revoke" : "Grant"} ${alias.slug} for ${key.name}`}
                            className="form-bare"
                          >
                            <input type="hidden" name="integrationId" value={integration.id} />
                            <input type="hidden" name="alias" value={alias.slug} />
                            <input type="hidden" name="keyId" value={key.id} />
                            <input type="hidden" name="granted" value={granted ? "false" : "true"} />
                            <SubmitButton className="button button-secondary">
                              {granted ? "Withdraw grant" : "Grant"}
                            </SubmitButton>
                          </ActionForm>
                        </td>
                      ) : null}
                    </tr>
                  );
                })}
              </Table>
            )}
            {admin ? (
              <ConfirmAction
                action={removeAliasAction}
                label={`Remove alias ${alias.slug}…`}
                question={`Remove the alias ${alias.slug}? Keys using it are refused from then on.`}
                confirmLabel="Remove alias"
                hidden={{ ...hidden, alias: alias.slug }}
              />
            ) : null}
          </div>
        ))}
        {admin ? (
          <ActionForm action={addAliasAction} label="Add an alias" className="form form-inline" resetOnSuccess>
            <input type="hidden" name="integrationId" value={integration.id} />
            <Field label="New alias" name="alias" placeholder="acme" />
            <SubmitButton>Add alias</SubmitButton>
          </ActionForm>
        ) : null}
      </Section>
      <Section title="Launch keys">
        {launchKeys.length === 0 ? (
          <Empty>
            No launch key is bound to this integration. Bind one from its key page (keys with embed:launch).
          </Empty>
        ) : (
          <ul>
            {launchKeys.map((key) => (
              <li key={key.id}>
                <Link href={`/keys/${key.id}`}>{key.name}</Link> launches for{" "}
                <code>{key.launch_binding?.integration}</code>
                {key.launch_binding?.enabled ? "" : " (disabled)"}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
