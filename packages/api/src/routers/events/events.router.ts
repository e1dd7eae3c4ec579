import { router } from "../../trpc";
import { listEvents } from "./list-events";

/** GET /v1/events: the organization's events, as webhooks deliver them. */
export const eventsRouter = router({ listEvents });
