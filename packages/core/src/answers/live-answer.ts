import type { AnswerStreamStatus } from "./answer-values";

/** One frame of an answer: its position (from 1) and its JSON as sent after `data: `. */
export interface AnswerFrame {
  seq: number;
  data: string;
}

/** What a frame's writer is told about the answer it belongs to, once the answer has one. */
export interface AnswerIdentity {
  conversationId: string;
  messageId: string;
}

/**
 * An answer being generated on this instance: every frame so far, in memory, for the
 * connection that asked and for anyone resuming here; the frame writer persists them for the
 * other instances. Generation does not depend on any connection: it stops only when the
 * answer ends, is cancelled (`abort`), or its instance stops.
 */
export class LiveAnswer {
  readonly frames: AnswerFrame[] = [];
  status: AnswerStreamStatus = "generating";
  identity: AnswerIdentity | undefined;
  clientGone = false;
  /** When it began here (the history shows it from then, before its row is written). */
  readonly startedAt = new Date();
  /** The last frame the database has (the frame writer's bookkeeping). */
  writtenSeq = 0;
  /** Aborted by a cancel (on any instance) or when this instance loses the answer's lease. */
  readonly abort = new AbortController();
  private readonly listeners = new Set<(frame: AnswerFrame) => void>();
  private hasEnded = false;
  /** Made only when someone waits (a resume here, a drain): most answers end with nobody waiting. */
  private ended: Promise<void> | undefined;
  private markEnded: (() => void) | undefined;

  constructor(
    readonly id: string,
    readonly requestId: string,
    /** Told of every frame (the frame writer queues it). */
    private readonly onFrame: (answer: LiveAnswer, frame: AnswerFrame) => void = () => {},
  ) {}

  get lastSeq(): number {
    return this.frames.length;
  }

  /** Resolves when the terminal frame is in (or the answer was dropped before its first frame). */
  get done(): Promise<void> {
    if (this.hasEnded) return Promise.resolve();
    return (this.ended ??= new Promise((resolve) => (this.markEnded = resolve)));
  }

  /** Appends a frame; `terminal` is the status its frame ends the answer with. */
  push(data: string, terminal?: Exclude<AnswerStreamStatus, "generating">): AnswerFrame {
    const frame = { seq: this.frames.length + 1, data };
    this.frames.push(frame);
    if (terminal) this.status = terminal;
    this.onFrame(this, frame);
    for (const listener of this.listeners) listener(frame);
    if (terminal) this.finish();
    return frame;
  }

  /** Every frame after `afterSeq`, then each new one as it comes; returns the unsubscribe. */
  subscribe(afterSeq: number, onFrame: (frame: AnswerFrame) => void): () => void {
    for (const frame of this.frames.slice(afterSeq)) onFrame(frame);
    if (this.status !== "generating") return () => {};
    this.listeners.add(onFrame);
    return () => this.listeners.delete(onFrame);
  }

  /** Ends an answer that never produced a frame (a refusal before the first one): nothing to keep. */
  finish(): void {
    this.listeners.clear();
    this.hasEnded = true;
    this.markEnded?.();
  }
}
