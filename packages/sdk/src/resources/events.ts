import { unwrap, type Transport } from "../http/transport";
import type { CallOptions } from "../idempotency";
import { paginate, type Page } from "../paging";
import type { Event, ListEventsQuery } from "../types";

/** GET /v1/events: the organization's events of the last 30 days, newest first (catch up after downtime). */
export class EventsResource {
  constructor(private readonly transport: Transport) {}

  /** One page; pass `next_cursor` as `cursor` for the next. */
  list(query: ListEventsQuery & { cursor?: string } = {}, options: CallOptions = {}) {
    return unwrap(this.transport.json.GET("/v1/events", { params: { query }, signal: options.signal }));
  }

  /** Every matching event, fetched page by page as the loop goes. */
  listAll(query: ListEventsQuery = {}, options: CallOptions = {}): AsyncGenerator<Event> {
    return paginate(async (cursor): Promise<Page<Event>> => {
      const page = await this.list({ ...query, ...(cursor ? { cursor } : {}) }, options);
      return { items: page.events, nextCursor: page.next_cursor };
    });
  }
}
