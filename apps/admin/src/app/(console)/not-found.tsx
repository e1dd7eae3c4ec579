import Link from "next/link";

export default function NotFound() {
  return (
    <section className="panel">
      <h2>Not found</h2>
      <p>
        Nothing here. <Link href="/organizations">Back to organizations</Link>
      </p>
    </section>
  );
}
