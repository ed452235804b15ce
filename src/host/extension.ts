/**
 * One extension's life: spawn, handshake, its own registrations, requests to
 * it, the ordered queue of its UI frames, the stop ladder and restarts after a
 * crash. The registry of all extensions, routing and UI live in host.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { CancellationToken, Disposable } from 'vscode-jsonrpc/node';
import {
  INTERCEPTABLE_EVENTS, PROTOCOL_VERSION, readToolSchema,
  type EventInterceptResponseFromExt, type EventPayload, type FrameFromExt, type FrameFromHost, type JsonObject,
} from '../protocol/index.js';
import type { FoundExtension } from './discovery.js';
import { nextId } from './ids.js';
import { resolveExec } from './manifest.js';
import { formatMs, stoppedMessage, toolOutcome, type CommandOutcome, type ToolOutcome } from './outcomes.js';
import { extensionLogPath } from './paths.js';
import { groupAlive, signalGroup, terminateGroup } from './processGroup.js';
import { FrameTransport, type WriteTicket } from './transport.js';

export type ExtensionState =
  | 'starting' | 'ready' | 'auto_ready' | 'ready_timed_out' | 'failed' | 'disabled' | 'stopped' | 'restarting'
  /** Not started because the embedding UI withheld it (workspace trust, consent). */
  | 'held';

/** States in which the extension runs and serves calls. */
export const RUNNING_STATES: ReadonlySet<ExtensionState> = new Set(['ready', 'auto_ready', 'ready_timed_out']);

export interface CommandRegistration { name: string; description: string }
export interface ToolRegistration {
  name: string;
  description: string;
  schema: JsonObject;
  interactive: boolean;
  deferred: boolean;
}

export interface Problem { time: number; message: string }

export interface RuntimeConfig {
  cwd: string;
  zotHome: string;
  hostVersion: string;
  env: NodeJS.ProcessEnv;
  helloTimeoutMs: number;
  autoReadyMs: number;
  writeTimeoutMs: number;
  shutdownGraceMs: number;
  killAfterMs: number;
  maxLineBytes: number;
  restart: { max: number; windowMs: number; baseDelayMs: number; maxDelayMs: number };
  model(): { provider: string; model: string };
}

/** How the runtime reports to the host. Every call is synchronous and cheap except `handle`. */
export interface RuntimeDelegate {
  stateChanged(rt: ExtensionRuntime): void;
  registrationsChanged(rt: ExtensionRuntime): void;
  /** UI-facing frames (notify, submit, panels…), run one at a time in arrival order, off the read path. */
  handle(rt: ExtensionRuntime, frame: FrameFromExt): Promise<void> | void;
  /** The connection is gone; pending calls have already failed. */
  disconnected(rt: ExtensionRuntime): void;
  log(rt: ExtensionRuntime, line: string, kind: 'stderr' | 'host'): void;
}

interface PendingCall {
  /** performance.now() after which `expire` is called; absent: no deadline. */
  deadline?: number;
  expire?(): void;
  reply(frame: FrameFromExt): void;
  /** A reply that failed validation but named this call's id. */
  malformed(problem: string): void;
  disconnect(reason: string): void;
}

/** One spawned process; a restart makes a new one, and events of an old one are ignored. */
interface Spawn {
  pid: number;
  child: ResultPromise;
  transport: FrameTransport;
  exited: Promise<void>;
  exit?: string;
  gotHello: boolean;
  /** Loading failed (no hello, a bad first frame): nothing more it says is read. */
  rejected?: boolean;
  /** Resolves when the log file has everything written to it. */
  logClosed: Promise<void>;
  helloTimer?: NodeJS.Timeout;
  autoReadyTimer?: NodeJS.Timeout;
  log?: fs.WriteStream;
}

const MAX_PROBLEMS = 200;

export class ExtensionRuntime {
  state: ExtensionState;
  /** Why it failed or is held, in a sentence. */
  error: string | undefined;
  readonly logPath: string;
  version: string | undefined;
  capabilities: string[] = [];
  commands = new Map<string, CommandRegistration>();
  tools = new Map<string, ToolRegistration>();
  events = new Set<string>();
  intercepts = new Set<string>();
  readonly problems: Problem[] = [];
  droppedProblems = 0;
  lateReplies = 0;

  private spawn: Spawn | undefined;
  private readonly pending = new Map<string, PendingCall>();
  /** One timer for every reply deadline, armed for the earliest: a timer per call costs more than the call. */
  private deadlineTimer: NodeJS.Timeout | undefined;
  private deadlineAt = Infinity;
  private wantRunning = false;
  private crashes: number[] = [];
  private restartTimer: NodeJS.Timeout | undefined;
  private settledWaiters: (() => void)[] = [];
  private uiQueue: FrameFromExt[] = [];
  private uiHead = 0;
  private uiDraining = false;
  private stopping: Promise<void> | undefined;

  constructor(readonly found: FoundExtension, private readonly config: RuntimeConfig, private readonly delegate: RuntimeDelegate) {
    this.logPath = extensionLogPath(config.zotHome, found.name);
    this.version = found.manifest?.version;
    if (found.error) {
      this.state = 'failed';
      this.error = found.error;
    } else if (found.shadowedBy) {
      this.state = 'disabled';
      this.error = `not loaded: ${found.shadowedBy} has the same ${found.manifest ? 'name' : 'folder name'} and comes first`;
    } else if (found.manifest && !found.manifest.enabled) {
      this.state = 'disabled';
      this.error = 'disabled in its extension.json ("enabled": false)';
    } else {
      this.state = 'stopped';
    }
  }

  get name(): string {
    return this.found.name;
  }

  get dir(): string {
    return this.found.dir;
  }

  /** Can it be started at all (a usable, enabled, unshadowed manifest with something to run)? */
  get startable(): boolean {
    return !this.found.error && !this.found.shadowedBy && !!this.found.manifest?.enabled && !this.found.assetsOnly;
  }

  get connected(): boolean {
    return this.spawn !== undefined && !this.spawn.transport.isClosed && this.spawn.gotHello;
  }

  get supportsCancel(): boolean {
    return this.capabilities.includes('tool_cancel');
  }

  get pid(): number | undefined {
    return this.spawn?.pid;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Starts the process. Resolves once it is ready, auto-ready, or failed (the host bounds this wait). */
  start(): Promise<void> {
    if (!this.startable) return Promise.resolve();
    if (this.spawn || this.stopping) return this.whenSettled();
    this.wantRunning = true;
    this.crashes = [];
    this.launch();
    return this.whenSettled();
  }

  /** Resolves when the extension leaves `starting` / `restarting`. */
  whenSettled(): Promise<void> {
    if (this.state !== 'starting' && this.state !== 'restarting') return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** The host's overall ready grace passed: stop blocking on this one. */
  markReadyTimedOut(): void {
    if (this.state === 'starting') {
      this.addProblem('did not finish registering within the ready grace period; loading went on without it');
      this.setState('ready_timed_out');
    }
  }

  /** Withheld by the embedding UI (trust, consent): listed, never started. */
  hold(reason: string): void {
    this.setState('held', reason);
  }

  /** Stop ladder: shutdown, close stdin, grace, SIGTERM to the group, SIGKILL. Resolves when the whole group is gone. */
  stop(): Promise<void> {
    this.wantRunning = false;
    if (this.restartTimer) {
      clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      if (this.state === 'restarting') this.setState('stopped');
    }
    if (!this.stopping) {
      const sp = this.spawn;
      if (!sp) {
        if (this.state === 'starting' || RUNNING_STATES.has(this.state)) this.setState('stopped');
        return Promise.resolve();
      }
      this.stopping = this.shutdown(sp).finally(() => {
        this.stopping = undefined;
        if (this.state !== 'failed' && this.state !== 'held') this.setState('stopped');
      });
    }
    return this.stopping;
  }

  // ---- calls into the extension ----

  callTool(
    name: string,
    args: JsonObject,
    /** `settled` runs with the outcome before the promise resolves, on every path. */
    opts: { token?: CancellationToken; timeoutMs: number; wireId?: string; settled?: (o: ToolOutcome) => void },
  ): Promise<ToolOutcome> {
    const ext = this.name;
    const sp = this.spawn;
    const early = (o: ToolOutcome): Promise<ToolOutcome> => {
      opts.settled?.(o);
      return Promise.resolve(o);
    };
    if (!sp || !this.connected) return early(toolOutcome('not_run', ext, `extension "${ext}" is not running (${this.state})`));
    if (opts.token?.isCancellationRequested) return early(toolOutcome('not_run', ext, 'canceled before the request reached the extension'));
    const id = opts.wireId ?? nextId();
    return new Promise<ToolOutcome>((resolve) => {
      // The frame goes out first: a reply cannot arrive before this returns, and the
      // bookkeeping below then overlaps with the extension's work instead of delaying it.
      const ticket: WriteTicket = sp.transport.send({ type: 'tool_call', id, name, args });
      let sub: Disposable | undefined;
      const finish = (o: ToolOutcome): void => {
        if (!this.pending.delete(id)) return;
        sub?.dispose();
        opts.settled?.(o);
        resolve(o);
      };
      const stop = (why: 'canceled' | 'timed_out'): void => {
        if (!this.pending.has(id)) return;
        if (this.takeBack(sp, ticket, why, opts.timeoutMs, (message) => finish(toolOutcome('not_run', ext, message)))) return;
        const told = this.supportsCancel;
        if (told) sp.transport.send({ type: 'tool_cancel', id });
        finish(toolOutcome(why === 'timed_out' ? 'timed_out' : told ? 'canceled' : 'abandoned', ext, stoppedMessage(why, told, opts.timeoutMs)));
      };
      const call: PendingCall = {
        reply: (frame) => {
          if (frame.type === 'tool_result') {
            finish({ outcome: 'completed', extension: ext, isError: frame.is_error === true, content: frame.content ?? [], message: '' });
          } else if (frame.type === 'error') {
            finish({ outcome: 'completed', extension: ext, isError: true, content: [{ type: 'text', text: frame.message || 'the extension reported an error' }], message: 'the extension answered with an error frame' });
          } else {
            this.malformedReply(id, frame.type);
          }
        },
        malformed: (problem) => finish({ outcome: 'completed', extension: ext, isError: true, content: [{ type: 'text', text: `malformed tool_result: ${problem}` }], message: `the extension sent a malformed tool_result: ${problem}` }),
        disconnect: (reason) => finish(toolOutcome('disconnected', ext, `extension "${ext}" ${reason} while the call was pending`)),
      };
      this.pending.set(id, call);
      if (opts.timeoutMs > 0) this.watchDeadline(call, opts.timeoutMs, () => stop('timed_out'));
      if (opts.token) sub = opts.token.onCancellationRequested(() => stop('canceled'));
    });
  }

  callCommand(name: string, args: string, opts: { token?: CancellationToken; timeoutMs: number }): Promise<CommandOutcome> {
    const ext = this.name;
    const sp = this.spawn;
    const early = (outcome: CommandOutcome['outcome'], message: string): Promise<CommandOutcome> => Promise.resolve({ outcome, extension: ext, message });
    if (!sp || !this.connected) return early('not_run', `extension "${ext}" is not running (${this.state})`);
    if (opts.token?.isCancellationRequested) return early('not_run', 'canceled before the request reached the extension');
    const id = nextId();
    return new Promise<CommandOutcome>((resolve) => {
      const ticket: WriteTicket = sp.transport.send({ type: 'command_invoked', id, name, args });
      let sub: Disposable | undefined;
      const finish = (o: CommandOutcome): void => {
        if (!this.pending.delete(id)) return;
        sub?.dispose();
        resolve(o);
      };
      const stop = (why: 'canceled' | 'timed_out'): void => {
        if (!this.pending.has(id)) return;
        if (this.takeBack(sp, ticket, why, opts.timeoutMs, (message) => finish({ outcome: 'not_run', extension: ext, message }))) return;
        // Commands have no cancel frame: the extension cannot be told.
        finish(why === 'timed_out'
          ? { outcome: 'timed_out', extension: ext, message: `timed out after ${formatMs(opts.timeoutMs)}; the command may still finish in the extension` }
          : { outcome: 'abandoned', extension: ext, message: 'canceled; commands cannot be cancelled in the extension, so it may still act' });
      };
      const call: PendingCall = {
        reply: (frame) => {
          if (frame.type === 'command_response') finish({ outcome: 'completed', extension: ext, response: frame, message: '' });
          else if (frame.type === 'error') finish({ outcome: 'completed', extension: ext, response: { type: 'command_response', id, action: 'noop', error: frame.message || 'the extension reported an error' }, message: '' });
          else this.malformedReply(id, frame.type);
        },
        malformed: (problem) => finish({ outcome: 'completed', extension: ext, response: { type: 'command_response', id, action: 'noop', error: `malformed command_response: ${problem}` }, message: '' }),
        disconnect: (reason) => finish({ outcome: 'disconnected', extension: ext, message: `extension "${ext}" ${reason} while the command was pending` }),
      };
      this.pending.set(id, call);
      if (opts.timeoutMs > 0) this.watchDeadline(call, opts.timeoutMs, () => stop('timed_out'));
      if (opts.token) sub = opts.token.onCancellationRequested(() => stop('canceled'));
    });
  }

  /**
   * Asks the extension about an event it intercepts. Resolves with its answer,
   * or undefined (allow) when it does not answer in time or goes away.
   */
  intercept(event: string, payload: EventPayload, timeoutMs: number): Promise<EventInterceptResponseFromExt | undefined> {
    const sp = this.spawn;
    if (!sp || !this.connected) return Promise.resolve(undefined);
    const id = nextId();
    return new Promise((resolve) => {
      const finish = (r: EventInterceptResponseFromExt | undefined): void => {
        if (this.pending.delete(id)) resolve(r);
      };
      const call: PendingCall = {
        reply: (frame) => {
          if (frame.type === 'event_intercept_response') finish(frame);
          else if (frame.type === 'error') finish(undefined);
          else this.malformedReply(id, frame.type);
        },
        malformed: (problem) => {
          this.addProblem(`malformed answer to the ${event} intercept (treated as allow): ${problem}`);
          finish(undefined);
        },
        disconnect: () => finish(undefined),
      };
      this.pending.set(id, call);
      this.watchDeadline(call, timeoutMs, () => {
        this.addProblem(`did not answer the ${event} intercept within ${formatMs(timeoutMs)}; treated as allow`);
        finish(undefined);
      });
      sp.transport.send({ ...payload, type: 'event_intercept', id, event });
    });
  }

  /** One-way frames: events, panel keys and sizes, panel closes. Never waits. */
  send(frame: FrameFromHost): void {
    if (this.connected) this.spawn!.transport.send(frame);
  }

  // ---- process life ----

  private launch(): void {
    const m = this.found.manifest!;
    const exec = resolveExec(m.exec!, this.dir, this.config.env);
    if (!exec.ok) {
      this.fail(exec.error);
      return;
    }
    this.setState('starting', undefined);
    this.capabilities = [];
    const log = this.openLog(`start ${this.name} ${this.found.manifest?.version ?? ''}: ${[exec.file, ...m.args].join(' ')} (in ${this.dir})`);
    let child: ResultPromise;
    try {
      child = execa(exec.file, m.args, {
        cwd: this.dir,
        env: this.config.env,
        extendEnv: false,
        detached: process.platform !== 'win32',
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'pipe',
        buffer: false,
        reject: false,
        stripFinalNewline: false,
        windowsHide: true,
      });
    } catch (err) {
      log?.end();
      this.fail(`could not start ${exec.file}: ${(err as Error).message}`);
      return;
    }
    const pid = child.pid;
    if (pid === undefined) {
      void child.then((r) => this.fail(`could not start ${exec.file}: ${r.message ?? 'spawn failed'}`));
      log?.end();
      return;
    }
    let onExit!: () => void;
    const exited = new Promise<void>((r) => (onExit = r));
    const sp: Spawn = {
      pid,
      child,
      exited,
      gotHello: false,
      logClosed: log ? new Promise<void>((r) => log.once('close', () => r())) : Promise.resolve(),
      transport: new FrameTransport(child.stdin!, child.stdout!, {
        frame: (f) => this.onFrame(sp, f),
        problem: (msg, about) => this.onBadFrame(sp, msg, about),
        closed: (reason) => this.onDisconnect(sp, reason),
      }, { writeTimeoutMs: this.config.writeTimeoutMs, maxLineBytes: this.config.maxLineBytes }),
    };
    if (log) sp.log = log;
    this.spawn = sp;
    this.pipeStderr(sp);
    this.hostLog(sp, `started process ${pid}`);
    child.on('exit', (code, signal) => {
      sp.exit = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      this.hostLog(sp, `process ${pid} ${sp.exit}`);
      onExit();
      this.onExit(sp);
    });
    void child.catch(() => undefined);
    sp.helloTimer = setTimeout(() => {
      if (this.spawn === sp && !sp.gotHello) this.failRunning(sp, `did not send hello within ${formatMs(this.config.helloTimeoutMs)}; see its log at ${this.logPath}`);
    }, this.config.helloTimeoutMs);
  }

  private onFrame(sp: Spawn, frame: FrameFromExt): void {
    if (this.spawn !== sp || sp.rejected) return;
    if (!sp.gotHello) {
      if (frame.type !== 'hello') {
        this.failRunning(sp, `its first frame was "${frame.type}", not "hello"`);
        return;
      }
      this.onHello(sp, frame);
      return;
    }
    if (sp.autoReadyTimer) this.armAutoReady(sp);
    switch (frame.type) {
      case 'tool_result':
      case 'command_response':
      case 'event_intercept_response': {
        const call = this.pending.get(frame.id);
        if (call) call.reply(frame);
        else this.lateReplies++; // late, cancelled or unknown: dropped by design
        return;
      }
      case 'error': {
        const call = frame.id !== undefined ? this.pending.get(frame.id) : undefined;
        if (call) call.reply(frame);
        else this.addProblem(`the extension reported an error: ${frame.message ?? '(no message)'}`);
        return;
      }
      case 'register_command': {
        const name = frame.name.trim();
        if (!name) return this.addProblem('register_command with an empty name was ignored');
        this.commands.set(name.toLowerCase(), { name, description: frame.description ?? '' });
        this.delegate.registrationsChanged(this);
        return;
      }
      case 'register_tool':
        return this.registerTool(frame);
      case 'subscribe':
        for (const e of frame.events ?? []) this.events.add(e);
        for (const e of frame.intercept ?? []) {
          if ((INTERCEPTABLE_EVENTS as readonly string[]).includes(e)) this.intercepts.add(e);
          else this.addProblem(`cannot intercept "${e}" (only ${INTERCEPTABLE_EVENTS.join(', ')}); ignored`);
        }
        this.delegate.registrationsChanged(this);
        return;
      case 'ready':
        this.clearAutoReady(sp);
        if (this.state !== 'ready') this.setState('ready');
        return;
      case 'hello':
        this.addProblem('sent hello a second time; ignored');
        return;
      case 'shutdown_ack':
        return;
      default:
        this.enqueueUi(frame);
    }
  }

  private onHello(sp: Spawn, hello: Extract<FrameFromExt, { type: 'hello' }>): void {
    sp.gotHello = true;
    clearTimeout(sp.helloTimer);
    this.capabilities = hello.capabilities ?? [];
    if (hello.version) this.version = hello.version;
    if (hello.name !== this.name) this.addProblem(`hello names it "${hello.name}"; its manifest name "${this.name}" is used`);
    const { provider, model } = this.config.model();
    sp.transport.send({
      type: 'hello_ack',
      protocol_version: PROTOCOL_VERSION,
      zot_version: this.config.hostVersion,
      provider,
      model,
      cwd: this.config.cwd,
      extension_dir: this.dir,
      data_dir: this.dir,
    });
    this.armAutoReady(sp);
    this.delegate.stateChanged(this);
  }

  private registerTool(frame: Extract<FrameFromExt, { type: 'register_tool' }>): void {
    const schema = readToolSchema(frame.schema);
    if (!schema.ok) return this.addProblem(`tool "${frame.name}" skipped: ${schema.problem}`);
    if (!frame.name.trim()) return this.addProblem('register_tool with an empty name was ignored');
    this.tools.set(frame.name, {
      name: frame.name,
      description: frame.description ?? '',
      schema: schema.schema,
      interactive: frame.interactive === true,
      deferred: frame.deferred === true,
    });
    this.delegate.registrationsChanged(this);
  }

  private onBadFrame(sp: Spawn, message: string, about?: { type?: string; id?: string }): void {
    if (this.spawn !== sp) return;
    if (about?.id !== undefined && (about.type === 'tool_result' || about.type === 'command_response' || about.type === 'event_intercept_response')) {
      const call = this.pending.get(about.id);
      if (call) call.malformed(message);
      // An intercept's own diagnostic says what became of the event: one is enough.
      if (call && about.type === 'event_intercept_response') return;
    }
    this.addProblem(message);
  }

  /**
   * Takes back a request that is being cancelled or has timed out. When it
   * never reached the extension, reports why through `notRun` and returns
   * true; a request stuck mid-write also gives up the transport (after the
   * call has settled, so it does not count as disconnected). Returns false
   * when the extension has the request.
   */
  private takeBack(sp: Spawn, ticket: WriteTicket, why: 'canceled' | 'timed_out', timeoutMs: number, notRun: (message: string) => void): boolean {
    const where = sp.transport.retract(ticket);
    if (where === 'written') return false;
    const what = why === 'canceled' ? 'canceled' : `timed out after ${formatMs(timeoutMs)}`;
    if (where === 'removed') {
      notRun(`${what} before the request reached the extension`);
    } else {
      notRun(`${what} while the request was still being written; the extension is not reading its input, so its connection was closed`);
      sp.transport.close('a request stuck mid-write was abandoned');
    }
    return true;
  }

  private watchDeadline(call: PendingCall, ms: number, expire: () => void): void {
    call.deadline = performance.now() + ms;
    call.expire = expire;
    if (call.deadline < this.deadlineAt) this.armDeadlines(call.deadline);
  }

  private armDeadlines(at: number): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineAt = at;
    this.deadlineTimer = setTimeout(() => {
      this.deadlineTimer = undefined;
      this.deadlineAt = Infinity;
      const now = performance.now() + 1; // timers may fire within a millisecond of their due time
      let next = Infinity;
      for (const c of this.pending.values()) {
        if (c.deadline === undefined) continue;
        if (c.deadline <= now) c.expire!();
        else if (c.deadline < next) next = c.deadline;
      }
      if (next < Infinity && next < this.deadlineAt) this.armDeadlines(next);
    }, Math.max(1, Math.ceil(at - performance.now())));
    // The child's pipes keep the process alive while calls are pending.
    this.deadlineTimer.unref();
  }

  private malformedReply(id: string, type: string): void {
    this.pending.get(id)?.malformed(`answered with "${type}"`);
  }

  /** The connection is gone: fail what waits on it at once, forget registrations, make sure the process ends. */
  private onDisconnect(sp: Spawn, reason: string): void {
    if (this.spawn !== sp) return;
    clearTimeout(sp.helloTimer);
    this.clearAutoReady(sp);
    const why = sp.exit ?? `closed its connection (${reason})`;
    for (const call of [...this.pending.values()]) call.disconnect(why);
    this.pending.clear();
    const hadRegistrations = this.commands.size + this.tools.size + this.events.size + this.intercepts.size > 0;
    this.commands.clear();
    this.tools.clear();
    this.events.clear();
    this.intercepts.clear();
    if (hadRegistrations) this.delegate.registrationsChanged(this);
    this.delegate.disconnected(this);
    if (!sp.exit && !this.stopping) {
      this.hostLog(sp, `connection lost: ${reason}; stopping the process`);
      void this.shutdown(sp);
    }
  }

  private onExit(sp: Spawn): void {
    if (this.spawn !== sp) return;
    sp.transport.close(sp.exit!);
    if (!this.stopping) this.closeLogSoon(sp);
    this.spawn = undefined;
    clearTimeout(sp.helloTimer);
    this.clearAutoReady(sp);
    // A stopping process's grandchildren are reaped by shutdown(); a crashed one's here.
    if (!this.stopping) void terminateGroup(sp.pid, this.config.killAfterMs);
    if (!this.wantRunning) return;
    if (!sp.gotHello) {
      // The log is the first place the message sends people: let it hold what the process said.
      const message = `${sp.exit} before sending hello; see its log at ${this.logPath}`;
      this.wantRunning = false;
      void within(sp.logClosed, 1000).then(() => {
        if (this.state === 'starting') this.fail(message);
      });
      return;
    }
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < this.config.restart.windowMs);
    this.crashes.push(now);
    const { max, windowMs, baseDelayMs, maxDelayMs } = this.config.restart;
    if (this.crashes.length > max) {
      this.fail(`crashed ${this.crashes.length} times within ${formatMs(windowMs)} (last: ${sp.exit}); not restarting it again. See its log at ${this.logPath}`);
      return;
    }
    const delay = Math.min(baseDelayMs * 2 ** (this.crashes.length - 1), maxDelayMs);
    this.setState('restarting', `${sp.exit}; restarting in ${formatMs(delay)} (restart ${this.crashes.length} of ${max})`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.wantRunning) this.launch();
    }, delay);
  }

  private async shutdown(sp: Spawn): Promise<void> {
    const { shutdownGraceMs, killAfterMs } = this.config;
    if (!sp.exit) {
      sp.transport.send({ type: 'shutdown' });
      sp.transport.endInput();
      if (!(await within(sp.exited, shutdownGraceMs))) {
        this.hostLog(sp, `did not exit within ${formatMs(shutdownGraceMs)} of shutdown; sending SIGTERM to its process group`);
        signalGroup(sp.pid, 'SIGTERM');
        if (!(await within(sp.exited, killAfterMs))) {
          this.hostLog(sp, 'ignored SIGTERM; sending SIGKILL to its process group');
          signalGroup(sp.pid, 'SIGKILL');
          await within(sp.exited, 2000);
        }
      }
    }
    if (groupAlive(sp.pid)) {
      this.hostLog(sp, 'processes it started are still running; ending its process group');
      await terminateGroup(sp.pid, killAfterMs);
    }
    sp.transport.close('stopped');
    this.closeLogSoon(sp);
    // So a CLI that exits right after stopping loses no log line.
    await within(sp.logClosed, 1000);
  }

  /** Ends the log file once stderr has drained (bounded: a grandchild may hold stderr open). */
  private closeLogSoon(sp: Spawn): void {
    const log = sp.log;
    if (!log || log.writableEnded) return;
    const stderr = sp.child.stderr;
    if (!stderr || stderr.readableEnded) {
      log.end();
      return;
    }
    const end = (): void => {
      clearTimeout(timer);
      if (!log.writableEnded) log.end();
    };
    const timer = setTimeout(end, 500);
    stderr.once('end', end);
  }

  /** Fails loading of a running process: it is stopped and not restarted. */
  private failRunning(sp: Spawn, message: string): void {
    sp.rejected = true;
    this.wantRunning = false;
    this.fail(message);
    void this.shutdown(sp);
  }

  private fail(message: string): void {
    this.wantRunning = false;
    this.addProblem(message);
    this.setState('failed', message);
  }

  private setState(state: ExtensionState, error?: string): void {
    this.state = state;
    this.error = error;
    if (state !== 'starting' && state !== 'restarting') {
      const waiters = this.settledWaiters;
      this.settledWaiters = [];
      for (const w of waiters) w();
    }
    this.delegate.stateChanged(this);
  }

  private armAutoReady(sp: Spawn): void {
    if (sp.autoReadyTimer) clearTimeout(sp.autoReadyTimer);
    if (this.state !== 'starting' && this.state !== 'ready_timed_out') {
      sp.autoReadyTimer = undefined;
      return;
    }
    sp.autoReadyTimer = setTimeout(() => {
      sp.autoReadyTimer = undefined;
      if (this.spawn === sp && (this.state === 'starting' || this.state === 'ready_timed_out')) this.setState('auto_ready');
    }, this.config.autoReadyMs);
  }

  private clearAutoReady(sp: Spawn): void {
    if (sp.autoReadyTimer) clearTimeout(sp.autoReadyTimer);
    sp.autoReadyTimer = undefined;
  }

  // ---- UI frames, in order, never on the read path ----

  private enqueueUi(frame: FrameFromExt): void {
    this.uiQueue.push(frame);
    if (!this.uiDraining) void this.drainUi();
  }

  private async drainUi(): Promise<void> {
    this.uiDraining = true;
    while (this.uiHead < this.uiQueue.length) {
      const frame = this.uiQueue[this.uiHead++]!;
      if (this.uiHead > 1024 && this.uiHead * 2 > this.uiQueue.length) {
        this.uiQueue = this.uiQueue.slice(this.uiHead);
        this.uiHead = 0;
      }
      try {
        await this.delegate.handle(this, frame);
      } catch (err) {
        this.addProblem(`handling its "${frame.type}" frame failed: ${(err as Error).message}`);
      }
    }
    this.uiQueue = [];
    this.uiHead = 0;
    this.uiDraining = false;
  }

  // ---- logs and problems ----

  addProblem(message: string): void {
    if (this.problems.length >= MAX_PROBLEMS) {
      this.problems.shift();
      this.droppedProblems++;
    }
    this.problems.push({ time: Date.now(), message });
    if (this.spawn) this.hostLog(this.spawn, `problem: ${message}`);
    else this.delegate.log(this, `problem: ${message}`, 'host');
  }

  private hostLog(sp: Spawn, line: string): void {
    if (sp.log && !sp.log.writableEnded) sp.log.write(`[host ${new Date().toISOString()}] ${line}\n`);
    this.delegate.log(this, line, 'host');
  }

  private openLog(startLine: string): fs.WriteStream | undefined {
    try {
      fs.mkdirSync(path.dirname(this.logPath), { recursive: true });
      const log = fs.createWriteStream(this.logPath, { flags: 'a' });
      log.on('error', () => undefined); // a full disk must not take the host down
      log.write(`\n--- ${new Date().toISOString()} ${startLine}\n`);
      this.delegate.log(this, startLine, 'host');
      return log;
    } catch {
      this.delegate.log(this, `cannot write its log at ${this.logPath}`, 'host');
      return undefined;
    }
  }

  private pipeStderr(sp: Spawn): void {
    let partial = '';
    const stderr = sp.child.stderr!;
    stderr.setEncoding('utf8');
    stderr.on('data', (chunk: string) => {
      if (sp.log && !sp.log.writableEnded) sp.log.write(chunk);
      const text = partial + chunk;
      const lines = text.split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > 64 * 1024) {
        lines.push(partial);
        partial = '';
      }
      for (const l of lines) this.delegate.log(this, l.replace(/\r$/, ''), 'stderr');
    });
    stderr.on('end', () => {
      if (partial) this.delegate.log(this, partial, 'stderr');
    });
    stderr.on('error', () => undefined);
  }
}

/** Resolves true if `p` settles within `ms`. */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    void p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}
