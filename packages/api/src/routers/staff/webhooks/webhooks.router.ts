import { router } from "../../../trpc";
import { createEndpoint } from "./create-endpoint";
import { deleteEndpoint } from "./delete-endpoint";
import { listDeliveries } from "./list-deliveries";
import { listEndpoints } from "./list-endpoints";
import { redeliver } from "./redeliver";
import { rollSecret } from "./roll-secret";
import { sendTestEvent } from "./send-test-event";
import { updateEndpoint } from "./update-endpoint";

/** An organization's webhook endpoints: everyone reads; admins configure, roll, redeliver and test (audited). */
export const staffWebhooksRouter = router({
  list: listEndpoints,
  create: createEndpoint,
  update: updateEndpoint,
  rollSecret,
  delete: deleteEndpoint,
  deliveries: listDeliveries,
  redeliver,
  sendTestEvent,
});
