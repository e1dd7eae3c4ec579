/** The closed value sets of a message's columns, enforced by CHECK constraints on messages. */
export const MESSAGE_ROLES = ["user", "assistant"] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** `incomplete`: a streamed answer cut off by an upstream failure. */
export const MESSAGE_STATUSES = ["complete", "incomplete"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * The order of a conversation's history (GET …/messages `order`), by message position: `asc`
 * oldest first (the default, and the only order before paging), `desc` newest first.
 */
export const HISTORY_ORDERS = ["asc", "desc"] as const;
export type HistoryOrder = (typeof HISTORY_ORDERS)[number];
