import type { Refusal } from "@/lib/session";
import Link from "next/link";

/**
 * A list request the API refused, shown where the list would be: in words, with the API's own
 * text as the hover, and a link to the list's first page when the page link was the problem.
 */
export function ListRefusal({ refusal, firstPage }: { refusal: Refusal; firstPage: string }) {
  return (
    <div className="refusal">
      <p className="form-error" role="alert" title={refusal.detail}>
        {refusal.message}
      </p>
      {refusal.badPageLink ? (
        <p>
          <Link href={firstPage}>First page</Link>
        </p>
      ) : null}
    </div>
  );
}
