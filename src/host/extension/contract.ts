/**
 * The terms between the host and each extension's runtime: what a runtime
 * is made with (its timings, the gate, the settings and environment it
 * launches with) and how it reports back (state moves, registrations, UI
 * frames, logs, terva's notices and requests, zot's call_tool).
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { AnswerFromHost, FrameFromExt, JsonObject, RequestFromExt } from '../../protocol/index.js';
import type { FoundExtension } from '../discovery/discover.js';
import type { LogLevel } from '../port.js';
import type { TervaChange } from '../terva/notices.js';
import type { GateDecision } from './gate.js';
import type { SpawnConfig } from './launch.js';
import type { CallToolFrame } from './reading.js';
import type { RestartBudget, RestartPolicy } from './restartPolicy.js';
import type { ExtensionRuntime } from './runtime.js';
import type { StatusView } from './state.js';

/** What a runtime is made with; SpawnConfig holds the environment, the stop ladder's timings and the redaction. */
export interface RuntimeConfig extends SpawnConfig {
  cwd: string;
  zotHome: string;
  hostVersion: string;
  helloTimeoutMs: number;
  bootstrapLimitMs: number;
  autoReadyMs: number;
  restart: RestartBudget;
  /** A policy other than the budget's (HostOptions.restartPolicy). */
  restartPolicy?: (extension: string) => RestartPolicy;
  model(): { provider: string; model: string };
  /** The events this host emits, for hello_ack's `supported_events`. */
  supportedEvents: readonly string[];
  /** The extension's resolved settings for hello_ack's `config` (keys sorted), or undefined when it declares none. */
  configFor?: (found: FoundExtension) => JsonObject | undefined;
  /**
   * Whether this code may run now (workspace trust, consent), asked before
   * every launch: the first start, Start, Restart, a crash restart, a
   * debugger's or a watcher's restart. Absent: every launch may run.
   */
  gate?: (found: FoundExtension) => GateDecision | Promise<GateDecision>;
}

/** How the runtime reports to the host. Every call is synchronous and cheap except `handle`. */
export interface RuntimeDelegate {
  stateChanged(rt: ExtensionRuntime, old: StatusView, next: StatusView): void;
  registrationsChanged(rt: ExtensionRuntime): void;
  /** UI-facing frames (notify, submit, panels…), one at a time in arrival order. */
  handle(rt: ExtensionRuntime, frame: FrameFromExt): Promise<void> | void;
  /**
   * The same frames as they arrive, in order with the rest of the stream: a
   * note sent before a tool's result is heard before that result settles
   * its call, however long the UI takes with the frames before it.
   */
  arrived(rt: ExtensionRuntime, frame: FrameFromExt): void;
  /** The connection is gone; pending requests have already failed. */
  disconnected(rt: ExtensionRuntime): void;
  log(rt: ExtensionRuntime, line: string, kind: 'stderr' | 'host', level: LogLevel): void;
  /** What one of terva's notices changed: its context, cards, status segments or withdrawn tools. */
  tervaChanged(rt: ExtensionRuntime, what: TervaChange): void;
  /** The answer to one of terva's requests; `token` is cancelled when the connection goes. Never rejects. */
  answer(rt: ExtensionRuntime, frame: RequestFromExt, token: CancellationToken): Promise<AnswerFromHost>;
  /** zot's `call_tool` and `call_tool_cancel` (`malformed`: a call_tool that failed validation, by its id). */
  callTool(rt: ExtensionRuntime, frame: CallToolFrame): void;
}

/** `onPanel`: a command's response that opens a panel was read; told its id at once, before any frame after it. */
export interface CallOpts { token?: CancellationToken | undefined; timeoutMs: number; onPanel?: ((panelId: string) => void) | undefined }
