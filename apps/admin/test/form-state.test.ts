import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { errorState, list, optionalText, text } from "../src/lib/form-state";

function clientError(message: string, httpStatus: number) {
  return new TRPCClientError(message, { result: { error: { message, code: -32600, data: { httpStatus } } } as never });
}

describe("form state of console actions", () => {
  it("shows the API's message in place, and says so when the session ended or the role is read-only", () => {
    expect(errorState(clientError("slug already used in this organization: acme", 400))).toEqual({ status: "error", message: "slug already used in this organization: acme" });
    expect(errorState(clientError("no session", 401)).message).toBe("Your session has ended. Sign in again.");
    expect(errorState(clientError("this action needs the admin role", 403)).message).toBe("Only admins can do this; your role is read-only.");
    expect(errorState(new Error("ECONNREFUSED")).message).toBe("The API could not be reached. Try again in a moment.");
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
