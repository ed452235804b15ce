/**
 * Output of every verb. Writes to a pipe are asynchronous on POSIX: a
 * process that exits right after writing loses whatever the pipe had not
 * taken yet, so every verb waits for `flush()` before it exits.
 */

import { terminalSafe } from '../protocol/index.js';
import { firstEvent } from './firstEvent.js';

// Everything the CLI prints goes through these, so no text from an extension reaches the terminal raw.
function line(s: string): string {
  return terminalSafe(s.endsWith('\n') ? s : `${s}\n`);
}

/**
 * A reader that went away (`zot-host … | head -1`) is not the verb's
 * failure: the rest of that stream's output is dropped, and the verb runs to
 * its end and exits with its own status, as it would have with the reader
 * there. Any other error of a standard stream is one.
 */
function tolerateClosedReader(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}
tolerateClosedReader(process.stdout);
tolerateClosedReader(process.stderr);

function write(stream: NodeJS.WriteStream, s: string): void {
  if (!stream.destroyed) stream.write(line(s));
}

export const out = (s: string): void => write(process.stdout, s);
export const err = (s: string): void => write(process.stderr, s);

/** Resolves once everything written to `stream` has been handed to the OS (or the reader went away). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableLength === 0) return Promise.resolve();
  // A reader that closed early (`| head`) ends the wait instead of failing it.
  // Writes complete in order: the callback of an empty write runs after every earlier one.
  return firstEvent(stream, ['error', 'close'], (done) => stream.write('', () => done()));
}

async function flush(): Promise<void> {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
}

/** Exits with the verb's status once its output is out; a verb that threw exits 1 with its stack on stderr. */
export function exitWhenDone(status: Promise<number>): void {
  status.then(
    async (code) => {
      await flush();
      process.exit(code);
    },
    async (e: unknown) => {
      err(`zot-host: ${(e as Error).stack ?? String(e)}`);
      await flush();
      process.exit(1);
    },
  );
}
