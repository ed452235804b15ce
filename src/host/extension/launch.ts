/**
 * One start of an extension: its process, the connection over its stdio,
 * the connection's request table and the timers of the handshake. A restart
 * makes a new launch; callbacks of an old one are recognised by identity.
 */
import type { ExtensionProcess } from '../process/child.js';
import { RequestTable } from '../connection/requests.js';
import { FrameTransport, type TapSlot, type TransportSink } from '../connection/transport.js';

/** What every launch of every extension is made with. */
export interface LaunchConfig {
  writeTimeoutMs: number;
  maxLineBytes: number;
  /** The protocol trace, shared by every connection of the host. */
  trace?: TapSlot;
  /** Variables added to one extension's environment for its next launches (a debugger's), by name. */
  envFor?: (name: string) => NodeJS.ProcessEnv | undefined;
}

export class Launch {
  readonly transport: FrameTransport;
  readonly requests: RequestTable;
  gotHello = false;
  /** Loading failed (no hello, a bad first frame): nothing more it says is read. */
  rejected = false;
  helloTimer: NodeJS.Timeout | undefined;
  autoReadyTimer: NodeJS.Timeout | undefined;
  /** The stop ladder of this launch, once asked. */
  ended: Promise<void> | undefined;

  constructor(readonly process: ExtensionProcess, sink: TransportSink, config: LaunchConfig, name: string) {
    this.transport = new FrameTransport(process.stdin, process.stdout, sink, { writeTimeoutMs: config.writeTimeoutMs, maxLineBytes: config.maxLineBytes, trace: config.trace, name });
    this.requests = new RequestTable(this.transport);
  }

  get pid(): number {
    return this.process.pid;
  }

  clearTimers(): void {
    clearTimeout(this.helloTimer);
    clearTimeout(this.autoReadyTimer);
    this.helloTimer = undefined;
    this.autoReadyTimer = undefined;
  }

  /** The stop ladder, politely first: shutdown, end of stdin. A second call forces it. */
  stop(): Promise<void> {
    const ladder = this.process.stop(() => {
      this.transport.send({ type: 'shutdown' });
      this.transport.endInput();
    });
    this.ended ??= ladder.then(() => this.transport.close('stopped'));
    return this.ended;
  }
}
