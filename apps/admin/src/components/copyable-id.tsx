import { CopyButton } from "./copy-button";

/** An id as shown everywhere in the console: the value, and a button that copies it. */
export function CopyableId({ value }: { value: string }) {
  return (
    <span className="copyable-id">
      <code>{value}</code> <CopyButton value={value} label="Copy" name={`Copy ${value}`} compact />
    </span>
  );
}
