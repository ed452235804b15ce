/**
 * Splits a byte stream into lines, in linear time however the bytes are
 * chunked: every byte is scanned for a newline once, and a line that spans
 * chunks is assembled once, when its newline arrives.
 *
 * A `\r` before the `\n` is removed. A line longer than `maxLineBytes` is
 * dropped as it streams in (never buffered whole) and reported, and the lines
 * after it arrive normally.
 */

/** zot accepts 4 MiB; this host accepts twice that so a 4 MiB payload plus escaping fits. */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** How much of a dropped line is kept to say what it was. */
const HEAD_BYTES = 256;
const LF = 0x0a;
const CR = 0x0d;

export interface LineSink {
  /**
   * One line: `bytes[start, end)`, without its LF (or CRLF). A line within one
   * chunk is that chunk itself, so no view is made for it; decode it at once,
   * the chunk is not kept.
   */
  line(bytes: Uint8Array, start: number, end: number): void;
  /**
   * A line over the limit was dropped; `bytes` is its length, counted up to
   * its end, and `head` its first bytes (enough to name the frame's type and id).
   */
  oversized(bytes: number, head: Uint8Array): void;
}

export class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Bytes of an oversized line seen so far; -1 while not discarding. */
  private discarded = -1;
  private discardedHead: Uint8Array = new Uint8Array(0);

  /**
   * `alloc` makes the buffer a line that spans chunks is assembled in. The
   * default zero-fills it, which for a line of megabytes costs more than the
   * copy; a Node caller passes `Buffer.allocUnsafe`.
   */
  constructor(
    private readonly sink: LineSink,
    readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
    private readonly alloc: (bytes: number) => Uint8Array = (n) => new Uint8Array(n),
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    const end = chunk.length;
    while (start < end) {
      const nl = chunk.indexOf(LF, start);
      if (nl === -1) {
        this.keep(chunk, start, end);
        return;
      }
      if (this.discarded >= 0) {
        this.sink.oversized(this.discarded + (nl - start), this.discardedHead);
        this.discarded = -1;
      } else if (this.pendingBytes === 0) {
        if (nl - start > this.maxLineBytes) this.sink.oversized(nl - start, chunk.slice(start, start + HEAD_BYTES));
        else this.emit(chunk, start, nl);
      } else {
        const total = this.pendingBytes + (nl - start);
        if (total > this.maxLineBytes) {
          this.sink.oversized(total, headOf(this.pending, chunk.subarray(start, nl)));
        } else {
          const whole = this.alloc(total);
          let at = 0;
          for (const part of this.pending) { whole.set(part, at); at += part.length; }
          whole.set(chunk.subarray(start, nl), at);
          this.emit(whole, 0, total);
        }
        this.pending = [];
        this.pendingBytes = 0;
      }
      start = nl + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.discarded >= 0) {
      this.sink.oversized(this.discarded, this.discardedHead);
    } else if (this.pendingBytes > 0) {
      const whole = this.alloc(this.pendingBytes);
      let at = 0;
      for (const part of this.pending) { whole.set(part, at); at += part.length; }
      this.emit(whole, 0, this.pendingBytes);
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.discarded = -1;
  }

  private keep(chunk: Uint8Array, start: number, end: number): void {
    const size = end - start;
    if (this.discarded >= 0) {
      this.discarded += size;
      if (this.discardedHead.length < HEAD_BYTES) this.discardedHead = headOf([this.discardedHead], chunk.subarray(start, end));
    } else if (this.pendingBytes + size > this.maxLineBytes) {
      this.discardedHead = headOf(this.pending, chunk.subarray(start, end));
      this.discarded = this.pendingBytes + size;
      this.pending = [];
      this.pendingBytes = 0;
    } else {
      // Stream chunks are never reused by their producer, so a view is enough.
      this.pending.push(chunk.subarray(start, end));
      this.pendingBytes += size;
    }
  }

  private emit(bytes: Uint8Array, start: number, end: number): void {
    this.sink.line(bytes, start, end > start && bytes[end - 1] === CR ? end - 1 : end);
  }
}

/** The first HEAD_BYTES of some parts followed by `extra`, copied. */
function headOf(parts: Uint8Array[], extra: Uint8Array): Uint8Array {
  const head = new Uint8Array(HEAD_BYTES);
  let at = 0;
  for (const part of [...parts, extra]) {
    if (at >= HEAD_BYTES) break;
    const take = part.subarray(0, HEAD_BYTES - at);
    head.set(take, at);
    at += take.length;
  }
  return head.subarray(0, at);
}
