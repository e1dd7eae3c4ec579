import { CopyableId } from "@/components/copyable-id";
import { Section, Time } from "@/components/ui";
import type { StaffOutputs } from "@/lib/api-types";
import Link from "next/link";
import { Fragment } from "react";

type Conversation = StaffOutputs["conversations"]["messages"]["conversation"];
type Loan = NonNullable<Conversation["loan"]>;

/** The loan context's fields in the order a loan officer reads a loan file, with their names. */
const LOAN_FIELDS: ReadonlyArray<[keyof Loan, string]> = [
  ["external_loan_id", "Loan"],
  ["program", "Program"],
  ["purpose", "Purpose"],
  ["occupancy", "Occupancy"],
  ["property_type", "Property type"],
  ["property_state", "Property state"],
  ["units", "Units"],
  ["milestone", "Milestone"],
  ["application_date", "Application date"],
];

/** A hosted-chat conversation's loan and the launch that opened it; an API conversation has neither, and says so. */
export function ConversationOrigin({ conversation }: { conversation: Conversation }) {
  const { loan, launch } = conversation;
  if (!loan) {
    return (
      <Section title="Loan and launch">
        <p className="hint">Started through the API: no loan or launch (those come with the hosted chat).</p>
      </Section>
    );
  }
  return (
    <Section title="Loan and launch">
      <dl className="facts" data-testid="conversation-loan">
        {LOAN_FIELDS.filter(([field]) => loan[field] !== undefined && loan[field] !== "").map(([field, label]) => (
          <Fragment key={field}>
            <dt>{label}</dt>
            <dd>{String(loan[field])}</dd>
          </Fragment>
        ))}
        <>
          <dt>Account generation</dt>
          <dd>{conversation.account_generation ?? "—"}</dd>
        </>
      </dl>
      {launch ? (
        <dl className="facts" data-testid="conversation-launch">
          <>
            <dt>Launch</dt>
            <dd>
              <CopyableId value={launch.id} />
            </dd>
          </>
          <>
            <dt>Integration</dt>
            <dd>
              <Link href={`/integrations/${launch.integration_id}`}>{launch.integration}</Link>
              {launch.public_name && launch.public_name !== launch.integration ? ` (as ${launch.public_name})` : ""}
            </dd>
          </>
          {launch.external_user_id ? (
            <>
              <dt>Launched by</dt>
              <dd>
                <Link
                  href={`/integrations/${launch.integration_id}/users/${encodeURIComponent(launch.external_user_id)}`}
                >
                  {launch.external_user_id}
                </Link>
              </dd>
            </>
          ) : null}
          <>
            <dt>Issued</dt>
            <dd>
              <Time iso={launch.created_at} />
            </dd>
          </>
          <>
            <dt>Opened</dt>
            <dd>{launch.consumed_at ? <Time iso={launch.consumed_at} /> : "Not opened"}</dd>
          </>
        </dl>
      ) : (
        <p className="hint">The launch that opened this conversation is no longer kept.</p>
      )}
    </Section>
  );
}
