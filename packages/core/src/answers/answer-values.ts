/**
 * A streamed answer's status, enforced by a CHECK constraint on answer_streams: `generating`
 * until its terminal frame; `complete` (public_api_complete), `failed` (the terminal error frame:
 * the upstream failed, or the generating instance died and its lease ran out) or `cancelled`
 * (asked to stop: the terminal error frame too, the partial answer stored as incomplete).
 */
export const ANSWER_STREAM_STATUSES = ["generating", "complete", "failed", "cancelled"] as const;
export type AnswerStreamStatus = (typeof ANSWER_STREAM_STATUSES)[number];
