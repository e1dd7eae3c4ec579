/** Shown while a console page loads its data. */
export default function Loading() {
  return (
    <p className="loading" role="status">
      Loading…
    </p>
  );
}
