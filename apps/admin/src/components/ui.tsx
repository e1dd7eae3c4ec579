import { formatTime } from "@/lib/format";
import { describeValue, type ValueKind } from "@/lib/words";
import Link from "next/link";
import type { ReactNode } from "react";

import { OutcomeRegion } from "./action-outcome";

/** Small presentational pieces shared by the console's pages (server components). */

export function PageHeader({
  title,
  children,
  back,
}: {
  title: string;
  children?: ReactNode;
  back?: { href: string; label: string };
}) {
  return (
    <div className="page-header">
      {back ? (
        <Link className="back-link" href={back.href}>
          ← {back.label}
        </Link>
      ) : null}
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/** A panel of the page; what a confirmed action in it did is reported at its foot (OutcomeRegion). */
export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section className="panel" aria-labelledby={id}>
      <div className="panel-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </div>
      <OutcomeRegion>{children}</OutcomeRegion>
    </section>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

const TONES: Record<string, string> = {
  active: "good",
  applied: "good",
  completed: "good",
  mapped: "good",
  enabled: "good",
  succeeded: "good",
  disabled: "bad",
  revoked: "bad",
  deleted: "bad",
  failed: "bad",
  expired: "bad",
  cancelled: "muted",
  archived: "muted",
  pending: "warn",
  queued: "warn",
  processing: "warn",
  verification_pending: "warn",
};

/** A status in staff's words (lib/words.ts); the API's value on hover. */
export function Badge({ value, kind = "status" }: { value: string; kind?: ValueKind }) {
  return (
    <span className={`badge badge-${TONES[value] ?? "muted"}`} title={value}>
      {describeValue(kind, value)}
    </span>
  );
}

/** A technical value in staff's words, the value itself on hover (for text outside a badge). */
export function Term({ value, kind }: { value: string; kind: ValueKind }) {
  return <span title={value}>{describeValue(kind, value)}</span>;
}

/** Only admins see forms that change things; viewers get this note instead. */
export function ReadOnlyNote() {
  return <p className="hint">Your role is read-only (viewer): ask an admin to make changes.</p>;
}

/** A data table with its column headers; rows come as children (`<tr>` elements). */
export function Table({
  headers,
  children,
  className,
}: {
  headers: ReadonlyArray<string | false>;
  children: ReactNode;
  className?: string;
}) {
  return (
    // Wide tables scroll inside their own box, never the page (a phone's 390 px).
    <div className="table-scroll">
      <table className={className ? `table ${className}` : "table"}>
        <thead>
          <tr>
            {headers
              .filter((header): header is string => header !== false)
              .map((header) => (
                <th key={header} scope="col">
                  {header}
                </th>
              ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A date as staff read it (formatTime), kept on one line. */
export function Time({ iso }: { iso: string | null | undefined }) {
  return iso ? (
    <time dateTime={iso} className="nowrap">
      {formatTime(iso)}
    </time>
  ) : (
    <>{formatTime(iso)}</>
  );
}
