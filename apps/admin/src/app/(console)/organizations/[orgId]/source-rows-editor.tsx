"use client";

import { useFormOutcome } from "@/components/form-state-context";
import { useId, useRef, useState } from "react";

/**
 * The tenant's source entries (spec 2.4) as rows of inputs instead of JSON: one row per
 * source, added and removed with buttons. The rows travel to the action as JSON in a hidden
 * input named like the configuration field, so the action and the API see the spec's shape.
 * An error about one row's property (fieldErrors["tenantSources.0.label"]) is shown on that
 * input; one about the whole list beneath the rows.
 */
type Kind = "tenant" | "secondary";
type SecondaryType = "tenant_bucket" | "shared_source";

interface Row {
  /** Local identity for React while rows are added and removed; never sent. */
  rowId: number;
  type: SecondaryType;
  /** `key` for tenant sources and tenant buckets, `sourceType` for shared sources. */
  id: string;
  label: string;
  description: string;
  groupLabel: string;
  defaultOn: boolean;
}

export type SourceEntry = {
  type?: string;
  key?: string;
  sourceType?: string;
  label: string;
  description?: string;
  groupLabel?: string;
  defaultOn: boolean;
};

const toRow = (entry: SourceEntry, rowId: number): Row => ({
  rowId,
  type: entry.type === "shared_source" ? "shared_source" : "tenant_bucket",
  id: entry.sourceType ?? entry.key ?? "",
  label: entry.label,
  description: entry.description ?? "",
  groupLabel: entry.groupLabel ?? "",
  defaultOn: entry.defaultOn,
});

/** A row as the spec writes it; empty optional texts are left out rather than sent as "". */
function toEntry(kind: Kind, row: Row): SourceEntry {
  const optional = {
    ...(row.description ? { description: row.description } : {}),
    ...(row.groupLabel ? { groupLabel: row.groupLabel } : {}),
  };
  if (kind === "tenant") return { key: row.id, label: row.label, ...optional, defaultOn: row.defaultOn };
  const id = row.type === "shared_source" ? { sourceType: row.id } : { key: row.id };
  return { type: row.type, ...id, label: row.label, ...optional, defaultOn: row.defaultOn };
}

export function SourceRowsEditor({
  name,
  legend,
  kind,
  initial,
  disabled,
}: {
  name: string;
  legend: string;
  kind: Kind;
  initial: SourceEntry[];
  disabled: boolean;
}) {
  const nextId = useRef(initial.length);
  const [rows, setRows] = useState(() => initial.map(toRow));
  const { state } = useFormOutcome();
  const baseId = useId();
  const listError = state.fieldErrors?.[name];
  const update = (rowId: number, change: Partial<Row>) =>
    setRows((current) => current.map((row) => (row.rowId === rowId ? { ...row, ...change } : row)));

  return (
    <fieldset className="source-rows wide" data-source-rows={name}>
      <legend>{legend}</legend>
      <input
        type="hidden"
        name={name}
        value={rows.length ? JSON.stringify(rows.map((row) => toEntry(kind, row))) : ""}
      />
      {rows.length === 0 ? <p className="empty">None.</p> : null}
      {rows.map((row, index) => {
        const idName = kind === "secondary" && row.type === "shared_source" ? "sourceType" : "key";
        const input = (property: string, text: string, value: string, onChange: (value: string) => void) => {
          const error = state.fieldErrors?.[`${name}.${index}.${property}`];
          const id = `${baseId}-${row.rowId}-${property}`;
          return (
            <div className="field">
              <label htmlFor={id}>{text}</label>
              <input
                id={id}
                value={value}
                onChange={(event) => onChange(event.target.value)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
              />
              {error ? (
                <small id={`${id}-error`} className="field-error" data-field-error={`${name}.${index}.${property}`}>
                  {error}
                </small>
              ) : null}
            </div>
          );
        };
        return (
          <div key={row.rowId} className="source-row" role="group" aria-label={`${legend}: row ${index + 1}`}>
            {kind === "secondary" ? (
              <div className="field">
                <label htmlFor={`${baseId}-${row.rowId}-type`}>Type</label>
                <select
                  id={`${baseId}-${row.rowId}-type`}
                  value={row.type}
                  onChange={(event) => update(row.rowId, { type: event.target.value as SecondaryType })}
                >
                  <option value="tenant_bucket">Tenant bucket</option>
                  <option value="shared_source">Shared source</option>
                </select>
              </div>
            ) : null}
            {input(idName, idName === "sourceType" ? "Source type" : "Key", row.id, (value) =>
              update(row.rowId, { id: value }),
            )}
            {input("label", "Label", row.label, (value) => update(row.rowId, { label: value }))}
            {input("description", "Description", row.description, (value) => update(row.rowId, { description: value }))}
            {input("groupLabel", "Group label", row.groupLabel, (value) => update(row.rowId, { groupLabel: value }))}
            <label className="check">
              <input
                type="checkbox"
                checked={row.defaultOn}
                onChange={(event) => update(row.rowId, { defaultOn: event.target.checked })}
              />{" "}
              On by default
            </label>
            {disabled ? null : (
              <button
                type="button"
                className="button button-secondary"
                onClick={() => setRows((current) => current.filter((other) => other.rowId !== row.rowId))}
              >
                Remove
              </button>
            )}
          </div>
        );
      })}
      {listError ? (
        <small className="field-error" data-field-error={name}>
          {listError}
        </small>
      ) : null}
      {disabled ? null : (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            const rowId = nextId.current;
            nextId.current += 1;
            setRows((current) => [
              ...current,
              { rowId, type: "tenant_bucket", id: "", label: "", description: "", groupLabel: "", defaultOn: false },
            ]);
          }}
        >
          {kind === "tenant" ? "Add a tenant source" : "Add a secondary source"}
        </button>
      )}
    </fieldset>
  );
}
