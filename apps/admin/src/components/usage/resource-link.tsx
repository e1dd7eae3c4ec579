import Link from "next/link";

/**
 * Where a logged request's resource is in the console: a conversation on its key's page; an
 * operation, import or launch through the search (which finds them by id).
 */
export function ResourceLink({ resourceId, keyId }: { resourceId: string | null; keyId: string | null }) {
  if (!resourceId) return <>—</>;
  if (resourceId.startsWith("conv_") && keyId) {
    return (
      <Link href={`/keys/${keyId}/conversations/${resourceId}`} data-resource={resourceId}>
        Conversation <code>{resourceId}</code>
      </Link>
    );
  }
  return (
    <Link href={`/search?q=${encodeURIComponent(resourceId)}`} data-resource={resourceId}>
      <code>{resourceId}</code>
    </Link>
  );
}
