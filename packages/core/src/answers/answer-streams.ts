import { hostname } from "node:os";

import { ANSWER_CANCELLED } from "../conversations/send-message";
import type { Database } from "../db/database";
import { startNotificationListener, type NotificationListener } from "../db/notification-listener";
import { newId, randomBase62 } from "../ids/new-id";
import { endAbandonedAnswers } from "./abandoned-answers";
import {
  ANSWER_CANCEL_CHANNEL,
  ANSWER_FRAMES_CHANNEL,
  existingConversations,
  findAnswerStream,
  latestAnswerStream,
  readFrames,
  requestCancel,
  writeFrames,
  type AnswerStreamRow,
  type StoredFrame,
} from "./answer-store";
import { LiveAnswer, type AnswerFrame } from "./live-answer";

export interface AnswerStreamsOptions {
  /** How long frames wait in memory before they are written, together (default 50 ms). */
  flushMs: number;
  /** How long an answer's lease holds without renewal: a dead instance's answers end after it (default 10 s). */
  leaseSeconds: number;
  /** How often each instance ends the answers of dead instances (default 2 s). */
  sweepMs: number;
  /** How often a follower on another instance reads on without a notification (default 2 s). */
  pollMs: number;
}

const DEFAULTS: AnswerStreamsOptions = { flushMs: 50, leaseSeconds: 10, sweepMs: 2_000, pollMs: 2_000 };

/** The reason when this instance lost the answer's lease (another instance ended it). */
const LEASE_LOST = "lease lost";
/** The reason when the instance stops them (tests; a last resort). */
const STOPPED = "instance stopped";
/** The reason when the answer's conversation was deleted while it was generated (its key or organization went). */
const CONVERSATION_GONE = "conversation deleted";

/**
 * Streamed answers of one instance (docs/decisions.md, "Resumable answers"): each answer's
 * frames are kept in memory while it is generated here and written to PostgreSQL in batches (one
 * statement per flush for every answer of the instance, never one per token), so a client that
 * lost its connection resumes on any instance: here from memory, elsewhere from the database,
 * following new frames through LISTEN/NOTIFY. Each answer holds a lease, renewed while it is
 * generated; every instance ends the answers whose lease ran out (their instance died).
 */
export class AnswerStreams {
  /** Which instance generates an answer (its lease's owner). */
  readonly owner = `${hostname()}:${process.pid}:${randomBase62(8)}`;
  private readonly options: AnswerStreamsOptions;
  private readonly live = new Map<string, LiveAnswer>();
  /** Answers with something to write: new frames (after their `writtenSeq`), a new status, a lease to renew. */
  private changed = new Set<LiveAnswer>();
  /** Answers whose conversation was deleted while they were generated: nothing more of them is written. */
  private readonly orphans = new WeakSet<LiveAnswer>();
  private flushing: Promise<void> | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly followers = new Map<string, Set<() => void>>();
  private readonly connections = new Set<() => void>();
  private listener: NotificationListener | undefined;
  private stopped = false;
  /** Every answer's frames go to the queue through this one function, not a closure per answer. */
  private readonly queueFrame = (answer: LiveAnswer) => this.queue(answer);

  constructor(
    private readonly db: Database,
    options: Partial<AnswerStreamsOptions> = {},
    private readonly log: (message: string, fields: Record<string, unknown>) => void = () => {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Listens for other instances' frames and cancels, and starts the lease and sweep timers. */
  start(url: string): Promise<void> {
    this.listener = startNotificationListener(
      url,
      [ANSWER_FRAMES_CHANNEL, ANSWER_CANCEL_CHANNEL],
      {
        onNotification: (channel, payload) =>
          channel === ANSWER_CANCEL_CHANNEL
            ? this.live.get(payload)?.abort.abort(ANSWER_CANCELLED)
            : this.wakeFollowers(payload),
        // Notifications may have been missed: every follower reads on.
        onListening: () => this.wakeFollowers(undefined),
        onLost: () => {},
      },
      { applicationName: "mga answer streams" },
    );
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(
        () => void work().catch((error: unknown) => this.log("answer streams", { error: String(error) })),
        ms,
      );
      timer.unref();
      this.timers.push(timer);
    };
    // A pass every quarter of the lease: a flush renews a lease that has less than RENEW_BELOW
    // (two thirds) of it left, so a lease is renewed about every half of it and never runs below half.
    every((this.options.leaseSeconds * 1000) / 4, () => this.renew());
    every(this.options.sweepMs, () => endAbandonedAnswers(this.db));
    return this.listener.ready;
  }

  /** A new answer, generated here. */
  begin(requestId: string): LiveAnswer {
    const answer = new LiveAnswer(newId("ans"), requestId, this.queueFrame);
    this.live.set(answer.id, answer);
    return answer;
  }

  /** An answer that ended before its first frame (refused, or failed first): nothing was or will be written. */
  drop(answer: LiveAnswer): void {
    this.live.delete(answer.id);
    answer.finish();
  }

  /** The client that asked went away: the answer goes on, and says so when stored. */
  markClientGone(answer: LiveAnswer): void {
    if (answer.clientGone || answer.status !== "generating") return;
    answer.clientGone = true;
    if (answer.lastSeq > 0) this.queue(answer);
  }

  /** Registers how to end one open stream when this instance shuts down; returns its removal. */
  onShutdown(sendOff: () => void): () => void {
    this.connections.add(sendOff);
    return () => this.connections.delete(sendOff);
  }

  /** Ends every stream still open on this instance with its resume hint (the drain's end); returns how many. */
  sendOffConnections(): number {
    const open = [...this.connections];
    this.connections.clear();
    for (const sendOff of open) sendOff();
    return open.length;
  }

  /** The answers being generated here. */
  get generating(): number {
    return this.live.size;
  }

  /**
   * An answer by id: generated here (perhaps not written yet), or as the database has it. An
   * answer another instance began a moment ago may not be written yet: a miss is looked for again
   * once that instance's flush has had time to land.
   */
  async find(streamId: string): Promise<AnswerStreamRow | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const local = this.live.get(streamId);
      const found = local?.identity ? this.rowOf(local) : await findAnswerStream(this.db, streamId);
      if (found || attempt === 2) return found;
      await new Promise((resolve) => setTimeout(resolve, this.options.flushMs * 2));
    }
  }

  /** A conversation's newest answer: one generated here first (perhaps not written yet). */
  async latest(conversationId: string): Promise<AnswerStreamRow | undefined> {
    const local = [...this.live.values()]
      .reverse()
      .find((answer) => answer.identity?.conversationId === conversationId && answer.lastSeq > 0);
    return local ? this.rowOf(local) : latestAnswerStream(this.db, conversationId);
  }

  /** A conversation's answers being generated here that have begun answering (their first frame is out). */
  generatingIn(conversationId: string): LiveAnswer[] {
    return [...this.live.values()].filter(
      (answer) =>
        answer.identity?.conversationId === conversationId && answer.status === "generating" && answer.lastSeq > 0,
    );
  }

  private rowOf(answer: LiveAnswer): AnswerStreamRow {
    return {
      id: answer.id,
      conversationId: answer.identity?.conversationId as string,
      messageId: answer.identity?.messageId as string,
      status: answer.status,
      lastSeq: answer.lastSeq,
      owner: this.owner,
    };
  }

  /**
   * Every frame after `afterSeq`, then each new one until the terminal frame (resolves true), or
   * until `signal` aborts (false). From memory when the answer is generated here, else from the
   * database, reading on at each notification (and every `pollMs` in case one was missed).
   */
  async follow(
    streamId: string,
    afterSeq: number,
    onFrame: (frame: AnswerFrame) => void,
    signal: AbortSignal,
  ): Promise<boolean> {
    const local = this.live.get(streamId);
    if (local) {
      const unsubscribe = local.subscribe(afterSeq, onFrame);
      const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      await Promise.race([local.done, aborted]);
      unsubscribe();
      return !signal.aborted;
    }
    let delivered = afterSeq;
    while (!signal.aborted) {
      const woken = this.nextWake(streamId, signal);
      const frames = await readFrames(this.db, streamId, delivered);
      for (const frame of frames) {
        onFrame(frame);
        delivered = frame.seq;
      }
      const stream = await findAnswerStream(this.db, streamId);
      if (!stream || (stream.status !== "generating" && delivered >= stream.lastSeq)) {
        woken.cancel();
        // Past what was stored: frames an instance sent before it died unwritten are gone, and
        // the terminal frame written for it sits before the client's position. It gets it all
        // the same (with its own, earlier id): every resume ends with a terminal frame.
        if (stream && afterSeq > stream.lastSeq && delivered === afterSeq)
          for (const frame of await readFrames(this.db, streamId, stream.lastSeq - 1, 1)) onFrame(frame);
        return true;
      }
      // More frames are written already: read on at once.
      if (frames.length > 0 && delivered < stream.lastSeq) woken.cancel();
      else await woken.promise;
    }
    return false;
  }

  /** Stops an answer being generated on any instance: true when it was generating. */
  async cancel(streamId: string): Promise<boolean> {
    const local = this.live.get(streamId);
    if (local) {
      local.abort.abort(ANSWER_CANCELLED);
      return true;
    }
    return requestCancel(this.db, streamId);
  }

  /** Stops every answer generated here (each is stored as incomplete): for tests and a last resort. */
  abortAll(): void {
    for (const answer of this.live.values()) answer.abort.abort(STOPPED);
  }

  /** Waits until every answer generated here has ended and is written, or `timeoutMs` passed; returns how many still run. */
  async drain(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.live.size > 0 && Date.now() < deadline) {
      const generating = [...this.live.values()].filter((answer) => answer.status === "generating");
      // Ended ones leave the map once their last frames are written.
      if (generating.length === 0) await this.flush();
      await Promise.race([
        Promise.all(generating.map((answer) => answer.done)),
        sleep(Math.max(1, Math.min(250, deadline - Date.now()))),
      ]);
    }
    await this.flush();
    return this.live.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    clearTimeout(this.flushTimer);
    await this.flush();
    this.wakeFollowers(undefined);
    await this.listener?.stop();
  }

  private queue(answer: LiveAnswer): void {
    if (this.orphans.has(answer)) return;
    this.changed.add(answer);
    if (this.stopped) return;
    // An answer's end is written at once: resumes elsewhere find it ended without waiting.
    if (answer.status !== "generating") void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), this.options.flushMs);
  }

  /** Resolves once every frame of `answer` so far is in the database (its stream ends only then). */
  async written(answer: LiveAnswer): Promise<void> {
    for (
      let attempt = 0;
      answer.writtenSeq < answer.lastSeq && answer.identity && !this.orphans.has(answer) && attempt < 50;
      attempt += 1
    ) {
      await this.flush();
      if (answer.writtenSeq < answer.lastSeq) await new Promise((resolve) => setTimeout(resolve, this.options.flushMs));
    }
  }

  /** Writes what is queued, one flush at a time (frames of one answer stay in order). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    // An answer is written once it knows its conversation (before its first frame). What is cut
    // here is consistent: a terminal status and its frame are set in one synchronous step.
    // A new set rather than deleting the batch's answers one by one, which rehashed it as it
    // emptied, 20 times a second, in tables long-lived enough to be promoted.
    const changed = this.changed;
    this.changed = new Set();
    const batch: Array<{ answer: LiveAnswer; upTo: number; terminal: boolean }> = [];
    for (const answer of changed) {
      if (answer.identity) batch.push({ answer, upTo: answer.lastSeq, terminal: answer.status !== "generating" });
      else this.changed.add(answer);
    }
    if (batch.length === 0) return;
    // The frames since each answer's last write, taken from the answer itself (made here, they
    // die young: a copy queued per frame lived until the flush, long enough to be promoted).
    const frames: StoredFrame[] = [];
    const streams = batch.map(({ answer, upTo }) => {
      for (let seq = answer.writtenSeq + 1; seq <= upTo; seq += 1)
        frames.push({ streamId: answer.id, seq, data: (answer.frames[seq - 1] as AnswerFrame).data });
      return {
        id: answer.id,
        conversationId: answer.identity?.conversationId as string,
        messageId: answer.identity?.messageId as string,
        requestId: answer.requestId,
        status: answer.status,
        lastSeq: upTo,
        clientGone: answer.clientGone,
      };
    });
    this.flushing = writeFrames(this.db, {
      owner: this.owner,
      leaseSeconds: this.options.leaseSeconds,
      streams,
      frames,
    })
      .then((ours) => {
        for (const { answer, upTo, terminal } of batch) {
          answer.writtenSeq = upTo;
          if (!ours.has(answer.id)) answer.abort.abort(LEASE_LOST);
          // Written through its terminal frame: followers elsewhere read it from the database now.
          if (terminal || !ours.has(answer.id)) this.live.delete(answer.id);
        }
      })
      .catch(async (error: unknown) => {
        // Not written: queued again (their frames after `writtenSeq` go in the next flush, with
        // what came since: a database that is back catches up).
        for (const { answer } of batch) this.changed.add(answer);
        const orphaned = isMissingConversation(error) ? await this.dropOrphans(batch.map(({ answer }) => answer)) : 0;
        if (orphaned === 0) this.log("answer frames not written; retried", { error: String(error) });
        // The others go in the next flush, at once when the refusal was the orphans'.
        const retryMs = orphaned > 0 ? this.options.flushMs : this.options.flushMs * 10;
        if (!this.stopped) this.flushTimer ??= setTimeout(() => void this.flush(), retryMs);
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }

  /**
   * Stops the answers of `batch` whose conversation is gone (deleted with its key or
   * organization while they were generated): the flush's insert of their rows broke the foreign
   * key to it and took every other answer of the flush down with it. They stop, and nothing more
   * of them is written; the rest go in the next flush. Returns how many stopped.
   */
  private async dropOrphans(batch: LiveAnswer[]): Promise<number> {
    const ids = batch.map((answer) => answer.identity?.conversationId as string);
    const present = await existingConversations(this.db, ids).catch(() => undefined);
    if (!present) return 0;
    const orphans = batch.filter((answer) => !present.has(answer.identity?.conversationId as string));
    for (const answer of orphans) {
      this.orphans.add(answer);
      this.changed.delete(answer);
      this.live.delete(answer.id);
      answer.abort.abort(CONVERSATION_GONE);
    }
    if (orphans.length > 0) this.log("answers stopped: their conversation was deleted", { answers: orphans.length });
    return orphans.length;
  }

  /**
   * Renews the leases of the answers generated here by putting each into the next flush, whose
   * upsert renews its lease. Not a statement of its own: one beside a flush under way would miss
   * the rows that flush has not committed yet (taking a new answer for one whose lease was lost)
   * and lock the rows both touch in another order (a deadlock).
   */
  private renew(): Promise<void> {
    for (const answer of this.live.values())
      if (answer.identity && answer.status === "generating" && answer.lastSeq > 0) this.changed.add(answer);
    return this.flush();
  }

  /** One follower's wait for news of `streamId`: a notification, the poll interval, or its end. */
  private nextWake(streamId: string, signal: AbortSignal): { promise: Promise<void>; cancel(): void } {
    let done: () => void = () => {};
    const promise = new Promise<void>((resolve) => (done = resolve));
    const waiters = this.followers.get(streamId) ?? new Set();
    this.followers.set(streamId, waiters);
    const timer = setTimeout(() => cancel(), this.options.pollMs);
    const onAbort = () => cancel();
    signal.addEventListener("abort", onAbort, { once: true });
    const cancel = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      waiters.delete(cancel);
      if (waiters.size === 0) this.followers.delete(streamId);
      done();
    };
    waiters.add(cancel);
    return { promise, cancel };
  }

  /** `payload`: `<stream id>:<last seq>,…` from a flush; undefined wakes every follower. */
  private wakeFollowers(payload: string | undefined): void {
    // Every flush on every instance notifies, this one's own too: with no follower here, nothing to read.
    if (this.followers.size === 0) return;
    const ids =
      payload === undefined
        ? [...this.followers.keys()]
        : payload.split(",").map((entry) => entry.slice(0, entry.lastIndexOf(":")));
    for (const id of ids) for (const wake of [...(this.followers.get(id) ?? [])]) wake();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** PostgreSQL's refusal of an answer's row whose conversation is no longer there. */
function isMissingConversation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === "23503" && constraint === "answer_streams_conversation_id_fkey";
}

/** The answer streams this instance runs (the server's main and the test app start them); none elsewhere. */
export function answerStreamsOf(db: Database): AnswerStreams | undefined {
  return db.instance.answerStreams;
}

export async function startAnswerStreams(
  db: Database,
  url: string,
  options: Partial<AnswerStreamsOptions> = {},
  log?: (message: string, fields: Record<string, unknown>) => void,
): Promise<AnswerStreams> {
  if (db.instance.answerStreams) throw new Error("answer streams already run for this database handle");
  const streams = new AnswerStreams(db, options, log);
  db.instance.answerStreams = streams;
  await streams.start(url);
  return streams;
}

export async function stopAnswerStreams(db: Database): Promise<void> {
  const streams = db.instance.answerStreams;
  db.instance.answerStreams = undefined;
  await streams?.stop();
}
