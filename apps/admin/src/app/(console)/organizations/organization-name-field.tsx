"use client";

import { Field } from "@/components/fields";
import { useState } from "react";

import { duplicateNameWarning, sameOrganizationName } from "./organization-names";

/**
 * The name input of creating and of renaming an organization, which treat a name already in
 * use alike: the warning shows while it is typed, and going ahead takes an explicit tick (the
 * actions check it again against the current list). `current` is the organization's own name
 * when renaming (keeping it is no duplicate).
 */
export function OrganizationNameField({
  label,
  existingNames,
  current,
  tickLabel,
}: {
  label: string;
  existingNames: string[];
  current?: string;
  tickLabel: string;
}) {
  const [name, setName] = useState(current ?? "");
  const duplicate =
    name.trim() !== "" &&
    !(current !== undefined && sameOrganizationName(current, name)) &&
    existingNames.some((existing) => sameOrganizationName(existing, name));
  return (
    <>
      <Field
        label={label}
        name="name"
        required
        maxLength={200}
        value={name}
        onChange={(event) => setName(event.target.value)}
        hint={current === undefined ? "The lender's name as staff will look for it, e.g. Acme Lending." : undefined}
        warning={
          duplicate ? (
            <span className="field-warning" data-duplicate-warning>
              {duplicateNameWarning(name)}
            </span>
          ) : undefined
        }
      />
      {duplicate ? (
        <label className="check">
          <input type="checkbox" name="confirmDuplicate" value="1" /> {tickLabel}
        </label>
      ) : null}
    </>
  );
}
