/**
 * Shown inside the console's frame while a page loads its data: the shape of a page (a title
 * and a panel of rows) in grey, so the layout does not jump when the data arrives.
 */
export default function Loading() {
  return (
    <div className="loading skeleton" role="status" aria-label="Loading">
      <div className="skeleton-title" />
      <div className="panel">
        {[0, 1, 2, 3, 4].map((row) => (
          <div key={row} className="skeleton-row" />
        ))}
      </div>
    </div>
  );
}
