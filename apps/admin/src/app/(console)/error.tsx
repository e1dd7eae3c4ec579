"use client";

/**
 * A page whose data could not be loaded says so in place, with a retry. In production Next
 * replaces a server error's message by a generic one and a digest (the server log has the
 * rest), so the digest is what staff can quote.
 */
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const generic = !error.message || error.message.startsWith("An error occurred in the Server Components render");
  return (
    <section className="panel panel-error" role="alert">
      <h2>This page could not be loaded</h2>
      <p>
        {generic
          ? "The API did not answer as expected. Try again; if it persists, the server log has the details."
          : error.message}
      </p>
      {error.digest ? <p className="hint">Reference: {error.digest}</p> : null}
      <button type="button" className="button" onClick={() => reset()}>
        Try again
      </button>
    </section>
  );
}
