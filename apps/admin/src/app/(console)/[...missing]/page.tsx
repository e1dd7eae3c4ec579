import { notFound } from "next/navigation";

/** Any other address under the console: its not-found page, inside the frame (not Next's bare 404). */
export default function Missing() {
  notFound();
}
