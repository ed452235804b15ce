/**
 * Framing over one child's stdin and stdout.
 *
 * Reading: bytes go through the line splitter and the validator; frames and
 * problems are handed to the sink synchronously, so replies are seen the moment
 * their line is complete. The sink must not block.
 *
 * Writing: a frame is written at once, with no tick and no callback, when
 * nothing waits for the pipe and something was read since the last write
 * (a call after its answer, a key after its render); nearly always the pipe
 * takes it whole there and then. A frame sent before anything more was read
 * is part of a burst (calls made together, events in a row) and goes with the
 * rest of the burst as one write on the next tick. When the pipe does not
 * take a write whole (the extension is slow to read), the rest waits in the
 * stream and frames sent meanwhile queue behind it, to go as one batch once
 * it is through. So a frame still in the queue can be taken back (a call
 * cancelled before delivery is never sent), and a batch that has not been
 * accepted by the pipe within `writeTimeoutMs` means the extension is not
 * reading: the transport is given up rather than letting anything wait on it.
 */
// Buffer imported, not the global: in Node that is a getter, read again on every line.
import { Buffer, isAscii } from 'node:buffer';
import type { Readable, Writable } from 'node:stream';
import { LineSplitter, encodeFrame, parseFrame, type FrameFromExt, type FrameFromHost } from '../../protocol/index.js';

/** Frames queued together are written together up to this many characters (bytes for ASCII); a larger frame goes on its own. */
const BATCH_CHARS = 64 * 1024;

/** Lines longer than this are checked for the ASCII fast path; below it the check costs more than it saves. */
const LARGE_LINE = 64 * 1024;

export interface TransportSink {
  frame(frame: FrameFromExt): void;
  problem(message: string, about?: { type?: string; id?: string }): void;
  /** Called once, when the transport stops for any reason. */
  closed(reason: string): void;
}

export type TicketState = 'queued' | 'writing' | 'written' | 'dropped';

/** One outbound frame's progress towards the extension. */
export class WriteTicket {
  state: TicketState = 'queued';
  constructor(readonly text: string) {}
}

/** Sees each frame: `out` as encoded (with its newline), `in` as read; `frame` is undefined for a line that failed validation. */
export type FrameTap = (extension: string, direction: 'in' | 'out', text: string, frame: { type: string; id?: string } | undefined) => void;

/** Where a tap is put: read on every frame, so a tap set or cleared applies at once; empty, it costs one property read. */
export interface TapSlot { tap?: FrameTap | undefined }

export interface TransportOptions {
  maxLineBytes?: number;
  writeTimeoutMs: number;
  /** The protocol trace, and the name it gives the other end. */
  trace?: TapSlot | undefined;
  name?: string;
}

export class FrameTransport {
  private queue: WriteTicket[] = [];
  /** The frames of a write the pipe has not taken whole yet. */
  private batch: WriteTicket[] | undefined;
  private batchStartedAt = 0;
  private writeTimer: NodeJS.Timeout | undefined;
  private closedReason: string | undefined;
  /** endInput() was asked while frames were still queued: end stdin once they are written. */
  private endWhenDrained = false;
  private readonly splitter: LineSplitter;
  /** Chunks read so far, and how many had been read at the last write: equal, a frame sent now is in a burst. */
  private reads = 0;
  private readsAtWrite = -1;

  constructor(
    private readonly stdin: Writable,
    stdout: Readable,
    private readonly sink: TransportSink,
    private readonly opts: TransportOptions,
  ) {
    this.splitter = new LineSplitter(
      {
        line: (bytes, start, end) => this.onLine(bytes, start, end),
        oversized: (n, head) => this.sink.problem(
          `dropped a line of ${n} bytes: longer than the ${this.splitter.maxLineBytes}-byte limit`,
          nameFrame(Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1')),
        ),
      },
      opts.maxLineBytes,
      (n) => Buffer.allocUnsafe(n),
    );
    stdout.on('data', (chunk: Buffer) => {
      this.reads++;
      if (this.closedReason === undefined) this.splitter.push(chunk);
    });
    stdout.once('end', () => {
      if (this.closedReason === undefined) this.splitter.end();
      this.close('its stdout closed');
    });
    stdout.on('error', (err) => this.close(`reading its stdout failed: ${err.message}`));
    // EPIPE and friends arrive here when the child dies with input pending.
    stdin.on('error', (err) => this.close(`writing to its stdin failed: ${err.message}`));
  }

  get isClosed(): boolean {
    return this.closedReason !== undefined;
  }

  get closeReason(): string | undefined {
    return this.closedReason;
  }

  /** Queues a frame. The ticket tells whether it was delivered; on a closed transport it is `dropped` at once. */
  send(frame: FrameFromHost): WriteTicket {
    const ticket = new WriteTicket(encodeFrame(frame));
    const tap = this.opts.trace?.tap;
    if (tap !== undefined) tap(this.opts.name ?? '', 'out', ticket.text, frame);
    if (this.closedReason !== undefined) {
      ticket.state = 'dropped';
      return ticket;
    }
    if (this.batch !== undefined || this.queue.length > 0) {
      this.queue.push(ticket);
      return ticket;
    }
    if (this.readsAtWrite === this.reads) {
      // Sent after a write with nothing read since: a burst. It and the rest of the burst go as one write on the next tick.
      this.queue.push(ticket);
      process.nextTick(this.flushBurst);
      return ticket;
    }
    const took = this.write(ticket.text);
    if (took === undefined) ticket.state = 'dropped';
    else if (took) ticket.state = 'written';
    else {
      ticket.state = 'writing';
      this.waitForPipe([ticket]);
    }
    return ticket;
  }

  /**
   * Takes a frame back. `removed`: it was still queued and will never be sent.
   * `stuck`: it is partly written and the pipe is not draining; the caller
   * decides whether to give up the transport. `written`: it reached the pipe.
   */
  retract(ticket: WriteTicket): 'removed' | 'stuck' | 'written' {
    if (ticket.state === 'queued') {
      const i = this.queue.indexOf(ticket);
      if (i >= 0) this.queue.splice(i, 1);
      ticket.state = 'dropped';
      return 'removed';
    }
    if (ticket.state === 'writing') {
      // The batch was handed to the stream but the callback has not run yet.
      // When the stream has nothing buffered, the kernel took every byte.
      return this.stdin.writableLength === 0 ? 'written' : 'stuck';
    }
    return ticket.state === 'written' ? 'written' : 'removed';
  }

  /** Gives the transport up: nothing more is read or written. */
  close(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    if (this.writeTimer) clearTimeout(this.writeTimer);
    for (const t of this.queue) t.state = 'dropped';
    if (this.batch) for (const t of this.batch) t.state = 'dropped';
    this.queue = [];
    this.batch = undefined;
    if (!this.stdin.destroyed) this.stdin.destroy();
    this.sink.closed(reason);
  }

  /** Ends stdin politely (after what is queued), as the stop ladder asks. */
  endInput(): void {
    if (this.closedReason !== undefined || this.stdin.writableEnded) return;
    if (this.batch === undefined && this.queue.length === 0) this.stdin.end();
    else this.endWhenDrained = true;
  }

  /** The tick after a burst began: the burst goes as one write, unless a batch the pipe has in hand holds it back. */
  private readonly flushBurst = (): void => {
    if (this.batch === undefined && this.closedReason === undefined) this.flush();
  };

  /**
   * Writes what is queued (a burst, or what waited behind a batch the pipe
   * has taken now), in batches of at most BATCH_CHARS: a large frame goes on
   * its own, so one the pipe cannot take whole holds back no frame joined to
   * it, and those behind it stay in the queue, where they can be taken back.
   */
  private flush(): void {
    while (this.queue.length > 0) {
      const queue = this.queue;
      let n = 1;
      let text = queue[0]!.text;
      while (n < queue.length && text.length + queue[n]!.text.length <= BATCH_CHARS) text += queue[n++]!.text;
      const batch = n === queue.length ? queue : queue.slice(0, n);
      this.queue = n === queue.length ? [] : queue.slice(n);
      const took = this.write(text);
      for (const t of batch) t.state = took === undefined ? 'dropped' : took ? 'written' : 'writing';
      if (took === undefined) return;
      if (!took) return this.waitForPipe(batch);
    }
    if (this.endWhenDrained && !this.stdin.writableEnded) this.stdin.end();
  }

  /**
   * Writes to the pipe: true when it took every byte at once, false when
   * some wait in the stream. No callback is passed: a write with one costs
   * the stream a tick and an object each time, a large share of a small call.
   * undefined: the stream is closed already, nothing was written, and the
   * transport is given up on the next tick (not under the caller, whose
   * request is not in its table yet).
   */
  private write(text: string): boolean | undefined {
    const stdin = this.stdin;
    if (stdin.destroyed || stdin.writableEnded) {
      process.nextTick(() => this.close('its stdin is closed'));
      return undefined;
    }
    stdin.write(text);
    this.readsAtWrite = this.reads;
    return stdin.writableLength === 0;
  }

  /**
   * Part of a batch waits in the stream: an empty write after it calls back
   * once everything before it is through, and the write timer watches it.
   */
  private waitForPipe(batch: WriteTicket[]): void {
    this.batch = batch;
    this.batchStartedAt = Date.now();
    this.armWriteTimer();
    this.stdin.write('', this.written);
  }

  /** Called back when a batch that waited in the stream is through. */
  private readonly written = (err?: Error | null): void => {
    const batch = this.batch;
    if (batch === undefined) return; // closed meanwhile
    this.batch = undefined;
    if (err) {
      this.close(`writing to its stdin failed: ${err.message}`);
      return;
    }
    for (const t of batch) t.state = 'written';
    this.flush();
  };

  /** One lazily re-armed timer covers every batch, instead of a timer per write. */
  private armWriteTimer(): void {
    if (this.writeTimer) return;
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      if (this.batch === undefined || this.closedReason !== undefined) return;
      const waited = Date.now() - this.batchStartedAt;
      if (waited >= this.opts.writeTimeoutMs) {
        this.close(`it stopped reading its stdin: a write did not complete within ${this.opts.writeTimeoutMs} ms`);
      } else {
        this.armWriteTimer();
      }
    }, Math.max(1, this.opts.writeTimeoutMs - (Date.now() - this.batchStartedAt)));
    this.writeTimer.unref();
  }

  private onLine(bytes: Uint8Array, start: number, end: number): void {
    if (this.closedReason !== undefined) return;
    if (end === start) return; // blank lines carry nothing
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // A large frame that is pure ASCII (JSON escapes everything else) decodes as
    // latin1 for a third less time than UTF-8 decoding; the text is the same.
    const ascii = end - start > LARGE_LINE && isAscii(buf.subarray(start, end));
    const text = buf.toString(ascii ? 'latin1' : 'utf8', start, end);
    const parsed = parseFrame(text);
    const tap = this.opts.trace?.tap;
    if (tap !== undefined) tap(this.opts.name ?? '', 'in', text, parsed.ok ? parsed.frame : undefined);
    if (parsed.ok) this.sink.frame(parsed.frame);
    else this.sink.problem(parsed.problem, parsed);
  }
}

/** Type and id of a frame from its first bytes, so an oversized reply can still fail its own call at once. */
function nameFrame(head: string): { type?: string; id?: string } {
  const type = /"type"\s*:\s*"([a-z_]+)"/.exec(head)?.[1];
  const id = /"id"\s*:\s*"([^"\\]{1,64})"/.exec(head)?.[1];
  return { ...(type !== undefined && { type }), ...(id !== undefined && { id }) };
}
