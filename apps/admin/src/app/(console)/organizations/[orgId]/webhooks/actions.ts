"use server";

import { runAction } from "@/lib/actions";
import { text, type FormState } from "@/lib/form-state";

type EventTypes = Parameters<
  Awaited<ReturnType<typeof import("@/lib/session").staffClient>>["staff"]["webhooks"]["create"]["mutate"]
>[0]["event_types"];

/** Adds an endpoint; its signing secret travels back in this action's result only, to be shown once. */
export async function createEndpointAction(_state: FormState, form: FormData): Promise<FormState> {
  const url = text(form, "url");
  const eventTypes = form.getAll("eventTypes").filter((value): value is string => typeof value === "string");
  const fieldErrors: Record<string, string> = {};
  if (!url) fieldErrors.url = "The partner's https URL that receives the events.";
  if (eventTypes.length === 0) fieldErrors.eventTypes = "Choose at least one event type.";
  if (Object.keys(fieldErrors).length) return { status: "error", fieldErrors };
  return runAction(
    async (api) => {
      const created = await api.staff.webhooks.create.mutate({
        organization_id: text(form, "orgId"),
        url,
        event_types: eventTypes as EventTypes,
        integration: text(form, "integration") || null,
        description: text(form, "description") || null,
      });
      return { status: "ok", message: `Endpoint ${created.endpoint.url} added.`, secret: created.secret };
    },
    undefined,
    { url: "url", event_types: "eventTypes", integration: "integration", description: "description" },
  );
}

/** A new signing secret, shown once; the old one keeps signing for 24 hours. */
export async function rollSecretAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    const rolled = await api.staff.webhooks.rollSecret.mutate({
      organization_id: text(form, "orgId"),
      endpoint_id: text(form, "endpointId"),
    });
    return {
      status: "ok",
      message: "New signing secret made. The old one keeps signing for 24 hours.",
      secret: rolled.secret,
    };
  });
}

export async function setEndpointStatusAction(_state: FormState, form: FormData): Promise<FormState> {
  const status = text(form, "status") === "enabled" ? "enabled" : "disabled";
  return runAction(
    async (api) => {
      await api.staff.webhooks.update.mutate({
        organization_id: text(form, "orgId"),
        endpoint_id: text(form, "endpointId"),
        status,
      });
    },
    status === "enabled"
      ? "Endpoint enabled: new events are delivered to it again."
      : "Endpoint disabled: nothing is delivered to it.",
  );
}

export async function sendTestEventAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    await api.staff.webhooks.sendTestEvent.mutate({
      organization_id: text(form, "orgId"),
      endpoint_id: text(form, "endpointId"),
    });
  }, "Test event queued: it appears in the deliveries below within seconds.");
}

export async function redeliverAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    await api.staff.webhooks.redeliver.mutate({
      organization_id: text(form, "orgId"),
      delivery_id: text(form, "deliveryId"),
    });
  }, "Redelivery queued.");
}

export async function deleteEndpointAction(_state: FormState, form: FormData): Promise<FormState> {
  return runAction(async (api) => {
    await api.staff.webhooks.delete.mutate({
      organization_id: text(form, "orgId"),
      endpoint_id: text(form, "endpointId"),
    });
  }, "Endpoint removed.");
}
