import { describeApiError } from "@/lib/describe-error";
import { list, optionalText, text } from "@/lib/form-state";
import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";

function clientError(message: string, httpStatus: number, code = "invalid_request", field?: string) {
  const data = field ? { httpStatus, field } : { httpStatus };
  return new TRPCClientError(message, {
    result: { error: { message, code: -32600, data, envelope: { error: { code, message, request_id: "" } } } } as never,
  });
}

describe("form state of console actions", () => {
  it("says in plain words what the API refused, and when the session ended or the role is read-only", () => {
    const taken = clientError(
      "the name acme is already used by an integration or alias of this organization",
      400,
      "invalid_request",
      "slug",
    );
    expect(describeApiError(taken, { slug: "slug" })).toEqual({
      status: "error",
      fieldErrors: { slug: "This organization already has an integration or alias named acme." },
    });
    // A refusal naming an input no rule knows is still shown beside that input, as a sentence.
    const alias = clientError("the name acme is already an alias of acme-los", 400, "invalid_request", "alias");
    expect(describeApiError(alias, { alias: "alias" })).toEqual({
      status: "error",
      fieldErrors: { alias: "The name acme is already an alias of acme-los." },
    });
    expect(describeApiError(clientError("no session", 401, "unauthorized")).message).toBe(
      "Your session has ended. Sign in again.",
    );
    expect(describeApiError(clientError("this action needs the admin role", 403, "forbidden")).message).toBe(
      "Only admins can do this; your role is read-only.",
    );
    expect(describeApiError(new Error("ECONNREFUSED")).message).toBe(
      "The API could not be reached. Try again in a moment.",
    );
  });

  it("puts every issue of a refused input beside its field, and keeps unknown text for the details line only", () => {
    const refused = describeApiError(
      clientError(
        "name: Too small: expected string to have >=1 characters; rate_limit_per_minute: Too big: expected number to be <=100000",
        400,
      ),
      {
        name: "name",
        rate_limit_per_minute: "rateLimit",
      },
    );
    expect(refused).toEqual({
      status: "error",
      fieldErrors: { name: "Required.", rateLimit: "Enter a number of at most 100000." },
    });
    const unknown = describeApiError(clientError("frobnicator: wobbled", 400));
    expect(unknown.message).toBe("The API refused this: check the values and try again.");
    expect(unknown.detail).toBe("frobnicator: wobbled");
    const problem = describeApiError(
      clientError("password: too easy to guess (this is a top-10 common password); add another word or two", 400),
      { password: "password" },
    );
    expect(problem.fieldErrors?.password).toBe(
      "Too easy to guess (this is a top-10 common password); add another word or two.",
    );
  });

  it("reads lists and optional text from a form", () => {
    const form = new FormData();
    form.set("sources", " fha, va\nusda ,, ");
    form.set("blank", "   ");
    form.set("name", "  Acme ");
    expect(list(form, "sources")).toEqual(["fha", "va", "usda"]);
    expect(list(form, "missing")).toEqual([]);
    expect(optionalText(form, "blank")).toBeUndefined();
    expect(text(form, "name")).toBe("Acme");
  });
});
