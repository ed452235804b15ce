/**
 * The protocol trace, as language clients have `trace.server`: `messages`
 * gives each frame's direction, type, id and size; `verbose` the frame too,
 * cut at TRACE_VERBOSE_MAX_CHARS. Secrets are replaced before anything is
 * cut or written: first by where they sit in a frame (traceMask.ts: a
 * call's secret-named and `display.redact` arguments, secret settings,
 * secret frames' values), then by value: the values the front end names (an
 * MCP token) and those of environment variables whose names say they are
 * secret, in case an extension echoes one. The environment itself never
 * travels in a frame.
 */
import { makeRedactor } from './redact.js';
import { maskByShape, type TraceFields } from './traceMask.js';
import type { FrameTap } from './transport.js';

export const TRACE_LEVELS = ['off', 'messages', 'verbose'] as const;
export type TraceLevel = (typeof TRACE_LEVELS)[number];

/** Characters of a frame a verbose trace line shows; the rest is counted, not shown. */
export const TRACE_VERBOSE_MAX_CHARS = 2000;

export interface TraceSink {
  level: Exclude<TraceLevel, 'off'>;
  /** One line per frame, without the extension's name (the sink knows where it goes). */
  line(extension: string, text: string): void;
  /** Values never to be written, asked for at each frame (a token may be made later). */
  secrets?: () => readonly string[];
}

export { REDACTED } from './redact.js';

/** A tap that writes each frame to `sink`, masked by its shape (`fields`) and with every value `sink.secrets` names hidden (the host adds the environment's). */
export function makeTap(sink: TraceSink, fields?: TraceFields): FrameTap {
  const redact = makeRedactor(() => sink.secrets?.() ?? []);
  return (extension, direction, text, frame) => {
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    const bytes = Buffer.byteLength(body);
    const arrow = direction === 'out' ? '→' : '←';
    const what = frame ? `${frame.type}${frame.id !== undefined ? ` #${frame.id}` : ''}` : '(invalid frame)';
    let line = `${arrow} ${what} ${bytes} B`;
    if (sink.level === 'verbose') {
      const shown = redact(maskByShape(body, extension, fields, frame !== undefined));
      line += ` ${shown.length > TRACE_VERBOSE_MAX_CHARS ? `${shown.slice(0, TRACE_VERBOSE_MAX_CHARS)}… (${shown.length - TRACE_VERBOSE_MAX_CHARS} more characters)` : shown}`;
    }
    sink.line(extension, line);
  };
}
