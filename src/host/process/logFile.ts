/**
 * One extension's zot-compatible log file: a header per start, its stderr as
 * written, and the host's own lines about it stamped `[host <time>]`. A full
 * disk never takes the host down, and a flood never fills it: past
 * `MAX_LOG_BYTES` the file becomes `<file>.1` (replacing the older one) and
 * writing goes on in a fresh file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';

export const MAX_LOG_BYTES = 8 * 1024 * 1024;

export class LogFile {
  /** Resolves when everything written has reached the file. */
  readonly closed: Promise<void>;
  private markClosed!: () => void;
  private size: number;
  private ended = false;

  private constructor(private readonly file: string, private stream: fs.WriteStream | undefined, size: number, private readonly maxBytes: number) {
    this.size = size;
    this.closed = stream ? new Promise<void>((r) => (this.markClosed = r)) : Promise.resolve();
    if (stream) this.watchClose(stream);
  }

  /** Opens for appending with a start header; a file that cannot be opened gives a log that writes nothing. */
  static open(file: string, header: string, maxBytes = MAX_LOG_BYTES): { log: LogFile; error?: string } {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      let size = fileSize(file);
      if (size >= maxBytes) {
        fs.renameSync(file, `${file}.1`);
        size = 0;
      }
      const log = new LogFile(file, openStream(file), size, maxBytes);
      log.write(`\n--- ${new Date().toISOString()} ${header}\n`);
      return { log };
    } catch (err) {
      return { log: new LogFile(file, undefined, 0, maxBytes), error: (err as Error).message };
    }
  }

  write(chunk: string): void {
    const s = this.stream;
    if (!s || this.ended) return;
    s.write(chunk);
    this.size += Buffer.byteLength(chunk);
    if (this.size >= this.maxBytes) this.rotate();
  }

  hostLine(line: string): void {
    this.write(`[host ${new Date().toISOString()}] ${line}\n`);
  }

  /** Ends the file once `stderr` has drained, bounded: a grandchild may hold stderr open. */
  endAfter(stderr: Readable | null): void {
    const s = this.stream;
    if (!s || this.ended) return;
    let timer: NodeJS.Timeout | undefined;
    const end = (): void => {
      clearTimeout(timer);
      if (this.ended) return;
      this.ended = true;
      this.stream?.end();
    };
    if (!stderr || stderr.readableEnded) return end();
    timer = setTimeout(end, 500);
    stderr.once('end', end);
  }

  /** The full file becomes `.1`; writing goes on in a new one. The old stream keeps its descriptor, so nothing queued is lost. */
  private rotate(): void {
    const old = this.stream!;
    try {
      fs.renameSync(this.file, `${this.file}.1`);
      const next = openStream(this.file);
      this.stream = next;
      this.watchClose(next);
      old.end();
      this.size = 0;
      this.write(`[host ${new Date().toISOString()}] log rotated: the earlier part is in ${path.basename(this.file)}.1\n`);
    } catch {
      // Cannot rotate (the folder went away): stop writing rather than grow without bound.
      this.ended = true;
      old.end();
    }
  }

  private watchClose(stream: fs.WriteStream): void {
    stream.once('close', () => {
      if (this.stream === stream) this.markClosed();
    });
  }
}

function openStream(file: string): fs.WriteStream {
  const stream = fs.createWriteStream(file, { flags: 'a' });
  stream.on('error', () => undefined);
  return stream;
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
