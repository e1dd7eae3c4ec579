import { availableUserActions } from "@/lib/user-actions";
import { describe, expect, it } from "vitest";

const operation = (type: "deletion" | "reprovision" | "profile_change", status: string) => ({
  operation_id: "op_1",
  type,
  status,
  error_code: null,
  updated_at: "2026-01-01T00:00:00Z",
});

describe("the lifecycle actions offered for a partner user", () => {
  it("follows the user's status", () => {
    expect(
      availableUserActions({ status: "active", provisioning_status: "active", lifecycle_operation: null }).actions,
    ).toEqual(["disable", "delete", "overrideProfile"]);
    expect(
      availableUserActions({ status: "disabled", provisioning_status: "active", lifecycle_operation: null }).actions,
    ).toEqual(["reactivate", "delete", "overrideProfile"]);
    expect(
      availableUserActions({
        status: "deleted",
        provisioning_status: "active",
        lifecycle_operation: operation("deletion", "completed") as never,
      }).actions,
    ).toEqual(["reprovision"]);
  });

  it("offers nothing while a deletion or reprovision is under way, and no override before setup finished", () => {
    for (const status of ["queued", "processing"]) {
      const queued = availableUserActions({
        status: "disabled",
        provisioning_status: "active",
        lifecycle_operation: operation("deletion", status) as never,
      });
      expect(queued.actions).toEqual([]);
      expect(queued.note).toMatch(/^A deletion is under way/);
    }
    expect(
      availableUserActions({
        status: "active",
        provisioning_status: "pending",
        lifecycle_operation: operation("reprovision", "queued") as never,
      }).actions,
    ).toEqual([]);
    const pending = availableUserActions({
      status: "active",
      provisioning_status: "pending",
      lifecycle_operation: null,
    });
    expect(pending.actions).toEqual(["disable", "delete"]);
    // A profile change waiting for verification can still be overridden.
    expect(
      availableUserActions({
        status: "active",
        provisioning_status: "active",
        lifecycle_operation: operation("profile_change", "verification_pending") as never,
      }).actions,
    ).toContain("overrideProfile");
  });
});
