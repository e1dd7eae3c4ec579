import { router } from "../../../trpc";
import { listStaffOutbox } from "./list-outbox";

/** The site-account outbox, read only, for support. */
export const staffOutboxRouter = router({ list: listStaffOutbox });
