/**
 * One start of an extension: its process, the connection over its stdio,
 * the connection's request table and the timers of the handshake, which
 * live in the launch's own store and end with it. A restart makes a new
 * launch; callbacks of an old one are recognised by identity.
 */
import { CancellationTokenSource, type CancellationToken } from 'vscode-jsonrpc/node';
import { ExtensionProcess } from '../process/child.js';
import { RequestTable } from '../connection/requests.js';
import { FrameTransport, type TapSlot, type TransportSink } from '../connection/transport.js';
import type { Manifest } from '../discovery/manifest.js';
import { resolveExec } from '../process/resolveExec.js';
import { DisposableStore, TimerSlot } from '../lifetime.js';

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
  /** When the process started: the bootstrap ceiling counts from here. */
  readonly spawnedAt = Date.now();
  /** The text of its last `bootstrap` line before hello, if any. */
  bootstrap: string | undefined;
  /** Loading failed (no hello, a bad first frame): nothing more it says is read. */
  rejected = false;
  /** What lives as long as this launch's connection: ended at once when it closes or the process exits. */
  readonly lifetime = new DisposableStore();
  /** Fails the launch when no hello came in time: quiet time, restarted by each `bootstrap`. */
  readonly helloTimer = this.lifetime.add(new TimerSlot());
  /** After hello, a quiet spell without `ready` counts as ready. */
  readonly autoReadyTimer = this.lifetime.add(new TimerSlot());
  /** The stop ladder of this launch, once asked. */
  ended: Promise<void> | undefined;
  /** Cancelled when the connection ends: what answers the extension's requests stops then. */
  readonly requestsGone: CancellationToken;

  constructor(readonly process: ExtensionProcess, sink: TransportSink, config: LaunchConfig, name: string) {
    this.transport = new FrameTransport(process.stdin, process.stdout, sink, { writeTimeoutMs: config.writeTimeoutMs, maxLineBytes: config.maxLineBytes, trace: config.trace, name });
    this.requests = new RequestTable(this.transport);
    const gone = new CancellationTokenSource();
    this.lifetime.add({ dispose: () => { gone.cancel(); gone.dispose(); } });
    this.requestsGone = gone.token;
  }

  get pid(): number {
    return this.process.pid;
  }

  /** Ends what lives as long as the connection (its timers); safe to call more than once. */
  end(): void {
    this.lifetime.dispose();
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

/** What one launch needs beyond the LaunchConfig: who it is, where it runs, and how long its stop ladder takes. */
export interface SpawnConfig extends LaunchConfig {
  env: NodeJS.ProcessEnv;
  shutdownGraceMs: number;
  killAfterMs: number;
  /** Hides secrets in what the host writes about the extension (its log's start line, its problems). Default: as is. */
  redact?: (text: string) => string;
}

export interface SpawnTarget { name: string; dir: string; manifest: Manifest; logPath: string }

/** The launch's callbacks: its frames and connection (TransportSink), its process's stderr, host notes and exit. */
export interface SpawnSink extends TransportSink {
  stderrLine(line: string): void;
  note(line: string): void;
  exited(how: string): void;
}

export type Spawned =
  | { ok: true; launch: Launch }
  /** `later`: the spawn error's own words, when the OS gives them after the fact. */
  | { ok: false; error: string; later?: Promise<string> };

/** Spawns the extension's process and opens its connection: a new launch. */
export function spawnLaunch(t: SpawnTarget, config: SpawnConfig, sink: SpawnSink): Spawned {
  const m = t.manifest;
  const exec = resolveExec(m.exec!, t.dir, config.env);
  if (!exec.ok) return { ok: false, error: exec.error };
  let launch: Launch | undefined;
  const started = ExtensionProcess.start({
    file: exec.file,
    args: m.args,
    cwd: t.dir,
    env: config.envFor?.(t.name) ?? config.env,
    logPath: t.logPath,
    header: (config.redact ?? String)(`start ${t.name} ${m.version ?? ''}: ${[exec.file, ...m.args].join(' ')} (in ${t.dir})`),
    shutdownGraceMs: config.shutdownGraceMs,
    killAfterMs: config.killAfterMs,
  }, {
    stderrLine: (line) => sink.stderrLine(line),
    note: (line) => sink.note(line),
    exited: (how) => launch && sink.exited(how),
  });
  if (!started.ok) return { ok: false, error: `could not start ${exec.file}`, later: started.error };
  launch = new Launch(started.process, sink, config, t.name);
  return { ok: true, launch };
}
