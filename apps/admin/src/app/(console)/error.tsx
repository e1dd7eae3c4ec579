"use client";

/** A page whose data could not be loaded says so in place, with the API's message and a retry. */
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="panel panel-error" role="alert">
      <h2>This page could not be loaded</h2>
      <p>{error.message || "The API did not answer."}</p>
      <button type="button" className="button" onClick={() => reset()}>
        Try again
      </button>
    </section>
  );
}
