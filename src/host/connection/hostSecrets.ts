/**
 * What a host keeps out of its log lines and its protocol trace: the
 * environment's secrets, values a front end names (a bearer token) and the
 * settings it reads as secret; and the trace itself, which every live
 * connection reads through one slot, so turning it on or off reaches them at once.
 */
import { makeTap, type TraceSink } from './frameTrace.js';
import { envSecrets, makeRedactor } from './redact.js';
import type { TraceFields } from './traceMask.js';
import type { TapSlot } from './transport.js';

export class HostSecrets {
  private readonly kept = new Set<string>();
  private readonly fromEnv: readonly string[];
  /** A line with every secret known now hidden. */
  readonly redact: (text: string) => string;
  /** The trace's tap, read by every connection on each frame. */
  readonly slot: TapSlot = {};

  /** `fields` says which values of a frame are secret by where they sit (a tool's `display.redact`, the settings declared secret). */
  constructor(env: NodeJS.ProcessEnv, private readonly fields: TraceFields) {
    this.fromEnv = envSecrets(env);
    this.redact = makeRedactor(() => this.all());
  }

  /** A value neither the trace nor a log line may ever write. */
  keep(value: string): void {
    this.kept.add(value);
  }

  /** The protocol trace on (every frame of every extension to `sink`, secrets hidden) or off. */
  trace(sink: TraceSink | undefined): void {
    this.slot.tap = sink ? makeTap({ ...sink, secrets: () => [...this.all(), ...(sink.secrets?.() ?? [])] }, this.fields) : undefined;
  }

  private all(): string[] {
    return [...this.fromEnv, ...this.kept];
  }
}
