/**
 * One extension's zot-compatible log file: a header per start, its stderr as
 * written, and the host's own lines about it stamped `[host <time>]`. A full
 * disk never takes the host down.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';

export class LogFile {
  /** Resolves when everything written has reached the file. */
  readonly closed: Promise<void>;
  private constructor(private readonly stream: fs.WriteStream | undefined) {
    this.closed = stream ? new Promise<void>((r) => stream.once('close', () => r())) : Promise.resolve();
  }

  /** Opens for appending with a start header; a file that cannot be opened gives a log that writes nothing. */
  static open(file: string, header: string): { log: LogFile; error?: string } {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const stream = fs.createWriteStream(file, { flags: 'a' });
      stream.on('error', () => undefined);
      stream.write(`\n--- ${new Date().toISOString()} ${header}\n`);
      return { log: new LogFile(stream) };
    } catch (err) {
      return { log: new LogFile(undefined), error: (err as Error).message };
    }
  }

  write(chunk: string): void {
    if (this.stream && !this.stream.writableEnded) this.stream.write(chunk);
  }

  hostLine(line: string): void {
    this.write(`[host ${new Date().toISOString()}] ${line}\n`);
  }

  /** Ends the file once `stderr` has drained, bounded: a grandchild may hold stderr open. */
  endAfter(stderr: Readable | null): void {
    const s = this.stream;
    if (!s || s.writableEnded) return;
    if (!stderr || stderr.readableEnded) {
      s.end();
      return;
    }
    const end = (): void => {
      clearTimeout(timer);
      if (!s.writableEnded) s.end();
    };
    const timer = setTimeout(end, 500);
    stderr.once('end', end);
  }
}
