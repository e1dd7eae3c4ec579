import Link from "next/link";

/**
 * An unknown id (organization, integration, key, user, import, conversation) or address, shown
 * inside the console's frame so the header, its search and the sections stay at hand.
 */
export default function NotFound() {
  return (
    <section className="panel" aria-labelledby="not-found">
      <h2 id="not-found">Not found</h2>
      <p>There is nothing at this address: the id may be mistyped, or what it named was deleted.</p>
      <p>
        Try the search at the top of the page, or go back to the <Link href="/organizations">organizations</Link>.
      </p>
    </section>
  );
}
