/** What a host is made with: its options, its timings and what it reports. */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { TraceSink } from './connection/frameTrace.js';
import type { LogLevel } from './port.js';
import type { RestartPolicy } from './extension/restartPolicy.js';
import type { Gate } from './extension/gate.js';
import type { HostUI } from './port.js';

export interface Timing {
  /** Quiet time allowed before hello: each `bootstrap` line starts it again (docs/TERVA.md 15.4). */
  helloTimeoutMs: number;
  /** However many `bootstrap` lines come, hello must come within this long of the spawn. */
  bootstrapLimitMs: number;
  readyGraceMs: number;
  autoReadyMs: number;
  toolTimeoutMs: number;
  commandTimeoutMs: number;
  interceptTimeoutMs: number;
  writeTimeoutMs: number;
  shutdownGraceMs: number;
  killAfterMs: number;
  restartMax: number;
  restartWindowMs: number;
  restartBaseDelayMs: number;
  restartMaxDelayMs: number;
}

export const DEFAULT_TIMING: Timing = {
  helloTimeoutMs: 10_000,
  bootstrapLimitMs: 600_000,
  readyGraceMs: 3_000,
  autoReadyMs: 250,
  toolTimeoutMs: 60_000,
  commandTimeoutMs: 30_000,
  interceptTimeoutMs: 5_000,
  writeTimeoutMs: 5_000,
  shutdownGraceMs: 2_000,
  killAfterMs: 1_000,
  restartMax: 4,
  restartWindowMs: 180_000,
  restartBaseDelayMs: 500,
  restartMaxDelayMs: 8_000,
};

export interface HostOptions {
  /** `cwd` in hello_ack of explicit and global extensions; relative explicit paths resolve against it. */
  cwd: string;
  /**
   * The project folders whose `.zot/extensions` are loaded, in this order
   * (a multi-root workspace's folders); each one is `cwd` for its own
   * extensions. Default `[cwd]`; empty when there is no project.
   */
  projectDirs?: readonly string[];
  /** zot home; default `$ZOT_HOME` or the platform default. */
  zotHome?: string;
  /** Extension folders loaded explicitly, first in load order. */
  extensionPaths?: string[];
  /** false: load only `extensionPaths`. */
  discover?: boolean;
  ui?: HostUI;
  env?: NodeJS.ProcessEnv;
  timing?: Partial<Timing>;
  maxLineBytes?: number;
  hostVersion?: string;
  /** The provider and model named in hello_ack until `setModel` says others (zot: fixed when it starts). */
  provider?: string;
  model?: string;
  /** Decides, per extension, whether it may start (workspace trust, consent). Default: all may. */
  gate?: Gate;
  /** The protocol trace from the start (see `ZotHost.setTrace`). */
  trace?: TraceSink;
  /**
   * Whether a crashed extension is restarted, made once per extension.
   * Default: zot's budget from the timings (restartMax restarts within
   * restartWindowMs, the delay doubling from restartBaseDelayMs).
   */
  restartPolicy?: (extension: string) => RestartPolicy;
  /** What answers terva's requests (secrets, host tools, sessions); each one absent is answered "not supported" (docs/TERVA.md 20). */
  services?: import('./terva/services.js').TervaServices;
  /**
   * Where the user's values of terva's extension settings come from (docs/TERVA.md
   * 17.1); without it, each setting is its manifest default.
   */
  settings?: SettingsSource;
}

/** The user's values for extensions' settings, by manifest name; secret fields apart. */
export interface SettingsSource {
  values(extension: string): Readonly<Record<string, unknown>> | undefined;
  /** A secret field's value (the editor keeps those in its secret storage). */
  secret(extension: string, key: string): string | undefined;
}

export interface CallOptions {
  token?: CancellationToken;
  /** Reply deadline in ms; 0 for none. Default: the host's, or none for interactive tools. */
  timeoutMs?: number;
}

/** A note an extension sent (`notify`), as every front end may want it besides the UI (MCP: progress or a log message). */
export interface NoteEvent { extension: string; level: import('../protocol/index.js').NotifyLevel; message: string }

/** A line of an extension's stderr (always `info`: its text is never parsed for severity), or the host's own line about it. */
export interface LogEvent { extension: string; line: string; kind: 'stderr' | 'host'; level: LogLevel }
