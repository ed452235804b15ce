/**
 * The pending-request table of one connection. It owns, for every request
 * the host sends (tool calls, commands, intercepts): the wire id, the
 * caller's cancellation subscription, the reply deadline, taking back a
 * frame that never left, and failing everything at once when the
 * connection closes. Each request settles exactly once.
 */
// Imported, not the global: in Node that is a getter, read again on every call.
import { performance } from 'node:perf_hooks';
import type { CancellationToken, Disposable } from 'vscode-jsonrpc/node';
import type { FrameFromExt, FrameFromHost } from '../../protocol/index.js';
import { formatMs } from '../results/outcomes.js';
import { nextId } from './ids.js';
import type { FrameTransport, WriteTicket } from './transport.js';

/** A frame that answers a request: its own reply type, or an `error` naming its id. */
export type ReplyFrame = Extract<FrameFromExt, { type: 'tool_result' | 'command_response' | 'event_intercept_response' | 'error' }>;

/** The frame types that answer a request by its id (besides `error`). */
export function isReplyType(type: string | undefined): boolean {
  return type === 'tool_result' || type === 'command_response' || type === 'event_intercept_response';
}

export type StopReason = 'canceled' | 'timed_out';

/** What a kind of request turns each ending into. */
export interface RequestSpec<T> {
  /** The frame to send, with the table's wire id. */
  frame(id: string): FrameFromHost;
  token?: CancellationToken | undefined;
  /** Reply deadline in ms; 0: none. */
  timeoutMs: number;
  reply(frame: ReplyFrame): T;
  /** A reply that named this id but failed validation. */
  malformed(problem: string): T;
  /** Never reached the extension; `message` says why. */
  notRun(message: string): T;
  /** Reached the extension, then was cancelled or timed out. `cancelFrame`, when given, is sent first. */
  stopped(why: StopReason): T;
  cancelFrame?: ((id: string) => FrameFromHost) | undefined;
  /** The connection closed while it was pending. */
  closed(reason: string): T;
}

export interface PendingRequest<T> {
  /** The wire id; empty when it settled without being sent. */
  readonly id: string;
  readonly result: Promise<T>;
  /** Cancels it as the caller's token would. */
  cancel(): void;
  /**
   * Runs `fn` with the result as it settles, before `result` resolves: one
   * watcher (the panels its call holds), with no promise of its own.
   */
  onSettled(fn: (value: T) => void): void;
}

/** A request that was sent and has not settled yet, with the spec it was sent with. */
export interface InFlight<T> extends PendingRequest<T> {
  readonly spec: RequestSpec<T>;
}

/** A request that settled without being sent (no wire id). */
export function settledRequest<T>(value: T): PendingRequest<T> {
  const result = Promise.resolve(value);
  return { id: '', result, cancel: () => undefined, onSettled: (fn) => void result.then(fn) };
}

/**
 * One pending request: one object with methods rather than a closure per
 * ending, since for a small call these allocations are a visible share of
 * the host's cost. It is also the caller's PendingRequest.
 */
class Entry<T> implements InFlight<T> {
  readonly result: Promise<T>;
  readonly deadline: number;
  private resolve!: (value: T) => void;
  private sub: Disposable | undefined;
  private watcher: ((value: T) => void) | undefined;
  private readonly ticket: WriteTicket;

  constructor(private readonly table: RequestTable, readonly id: string, readonly spec: RequestSpec<T>, transport: FrameTransport) {
    this.result = new Promise<T>((resolve) => (this.resolve = resolve));
    // The frame goes out first: a reply cannot arrive before this returns, and the
    // bookkeeping below then overlaps with the extension's work instead of delaying it.
    this.ticket = transport.send(spec.frame(id));
    this.deadline = spec.timeoutMs > 0 ? performance.now() + spec.timeoutMs : Infinity;
    if (spec.token) this.sub = spec.token.onCancellationRequested(() => this.stop('canceled'));
  }

  settle(how: (s: RequestSpec<T>) => T): void {
    if (!this.table.forget(this.id)) return;
    this.sub?.dispose();
    this.done(how(this.spec));
  }

  reply(frame: ReplyFrame): void {
    if (!this.table.forget(this.id)) return;
    this.sub?.dispose();
    this.done(this.spec.reply(frame));
  }

  onSettled(fn: (value: T) => void): void {
    this.watcher = fn;
  }

  private done(value: T): void {
    try {
      this.watcher?.(value);
    } finally {
      this.resolve(value);
    }
  }

  stop(why: StopReason): void {
    if (!this.table.isPending(this.id)) return;
    if (this.table.takeBack(this.ticket, why, this.spec.timeoutMs, (message) => this.settle((s) => s.notRun(message)))) return;
    if (this.spec.cancelFrame) this.table.transport.send(this.spec.cancelFrame(this.id));
    // The extension has it: a reply may still come, and whoever asks is told (lateReply).
    this.table.abandoned(this.id);
    this.settle((s) => s.stopped(why));
  }

  cancel(): void {
    this.stop('canceled');
  }
}

/** How long, and for how many requests, a reply after a cancel or time-out is still recognised as that request's. */
const LATE_KEEP_MS = 60_000;
const LATE_KEEP_MAX = 1_000;

interface Abandoned { at: number; replied: boolean; waiters: (() => void)[] }

export class RequestTable {
  private readonly pending = new Map<string, Entry<unknown>>();
  /** Requests that reached the extension and were then cancelled or timed out, by id, oldest first. */
  private readonly gaveUp = new Map<string, Abandoned>();
  /** One timer for every deadline, armed for the earliest: a timer per request costs more than the request. */
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(readonly transport: FrameTransport) {}

  get size(): number {
    return this.pending.size;
  }

  send<T>(spec: RequestSpec<T>): PendingRequest<T> {
    // Settled before sending: no wire id was used.
    if (spec.token?.isCancellationRequested) {
      return settledRequest(spec.notRun('canceled before the request reached the extension'));
    }
    if (this.transport.isClosed) return settledRequest(spec.closed(this.transport.closeReason ?? 'closed'));
    const id = nextId();
    const entry = new Entry(this, id, spec, this.transport);
    this.pending.set(id, entry as Entry<unknown>);
    if (entry.deadline < this.timerAt) this.arm(entry.deadline);
    return entry;
  }

  /** The request in flight with that wire id. */
  get(id: string): InFlight<unknown> | undefined {
    return this.pending.get(id);
  }

  /** Every request in flight, oldest first. */
  inFlight(): IterableIterator<InFlight<unknown>> {
    return this.pending.values();
  }

  /** For its entry: true once, when it leaves the table. */
  forget(id: string): boolean {
    return this.pending.delete(id);
  }

  isPending(id: string): boolean {
    return this.pending.has(id);
  }

  /** A reply arrived; false when nothing waits for it (a late one is noted for lateReply). */
  answer(id: string, frame: ReplyFrame): boolean {
    const e = this.pending.get(id);
    if (!e) {
      const a = this.gaveUp.get(id);
      if (a && !a.replied) {
        a.replied = true;
        for (const w of a.waiters.splice(0)) w();
      }
      return false;
    }
    e.reply(frame);
    return true;
  }

  /** For its entry: it reached the extension and was then cancelled or timed out. */
  abandoned(id: string): void {
    const now = performance.now();
    for (const [old, a] of this.gaveUp) {
      if (this.gaveUp.size < LATE_KEEP_MAX && now - a.at < LATE_KEEP_MS) break;
      this.gaveUp.delete(old);
      for (const w of a.waiters.splice(0)) w();
    }
    this.gaveUp.set(id, { at: now, replied: false, waiters: [] });
  }

  /**
   * Whether the extension answered a request the host had given up on
   * (cancelled, timed out) within `ms` of now: true at once when it did
   * already, false for a request that was never given up on.
   */
  lateReply(id: string, ms: number): Promise<boolean> {
    const a = this.gaveUp.get(id);
    if (!a) return Promise.resolve(false);
    if (a.replied) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        a.waiters.splice(a.waiters.indexOf(done), 1);
        resolve(a.replied);
      }, ms);
      const done = (): void => {
        clearTimeout(timer);
        resolve(a.replied);
      };
      a.waiters.push(done);
    });
  }

  /** A reply that named this id failed validation; false when nothing waits for it. */
  malformed(id: string, problem: string): boolean {
    const e = this.pending.get(id);
    e?.settle((s) => s.malformed(problem));
    return e !== undefined;
  }

  /** The connection is gone: everything pending fails now, not at its deadline. */
  closeAll(reason: string): void {
    for (const e of [...this.pending.values()]) e.settle((s) => s.closed(reason));
    // No reply can come any more.
    for (const a of this.gaveUp.values()) for (const w of a.waiters.splice(0)) w();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /**
   * Takes back a request being cancelled or timed out. When it never reached
   * the extension, reports why through `notRun` and returns true; one stuck
   * mid-write also gives up the transport (after the request settled, so it
   * does not count as closed under it). false: the extension has it.
   */
  takeBack(ticket: WriteTicket, why: StopReason, timeoutMs: number, notRun: (message: string) => void): boolean {
    const where = this.transport.retract(ticket);
    if (where === 'written') return false;
    const what = why === 'canceled' ? 'canceled' : `timed out after ${formatMs(timeoutMs)}`;
    if (where === 'removed') {
      notRun(`${what} before the request reached the extension`);
    } else {
      notRun(`${what} while the request was still being written; the extension is not reading its input, so its connection was closed`);
      this.transport.close('a request stuck mid-write was abandoned');
    }
    return true;
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      const now = performance.now() + 1; // timers may fire within a millisecond of their due time
      let next = Infinity;
      for (const e of [...this.pending.values()]) {
        if (e.deadline <= now) e.stop('timed_out');
        else if (e.deadline < next) next = e.deadline;
      }
      if (next < Infinity && next < this.timerAt) this.arm(next);
    }, Math.max(1, Math.ceil(at - performance.now())));
    // The child's pipes keep the process alive while requests are pending.
    this.timer.unref();
  }
}
