/**
 * One extension's life, as moves between the states of state.ts: launch,
 * handshake, its registrations, requests to it, restarts after a crash and
 * the stop. Every move goes through `transition`, which tells the host
 * `{old, new}`. The registry of all extensions lives in registry.ts.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { PROTOCOL_VERSION, ZOT_PROTOCOL_RELEASE, type EventInterceptResponseFromExt, type EventPayload, type FrameFromExt, type FrameFromHost, type JsonObject } from '../../protocol/index.js';
import { isReplyType, settledRequest, type PendingRequest, type ReplyFrame } from '../connection/requests.js';
import type { FoundExtension } from '../discovery/discover.js';
import { extensionLogPath } from '../discovery/paths.js';
import { askGate, type GateDecision } from '../options.js';
import { formatMs, toolOutcome, type CommandOutcome, type ToolOutcome } from '../outcomes.js';
import { within } from '../process/child.js';
import { asToolCall, commandSpec, interceptSpec, ToolCallSpec, toolCallsIn, type ToolCall, type ToolCallOpts } from './calls.js';
import { spawnLaunch, type Launch, type SpawnConfig } from './launch.js';
import { Problems, type LogLevel } from './problems.js';
import { Registrations, type CommandRegistration, type RegistrationFrame, type ToolRegistration } from './registrations.js';
import { afterCrash, restartBudget, type RestartBudget, type RestartPolicy } from './restartPolicy.js';
import { canStart, initialStatus, isServing, isStartable, isSettling, launchOf, StateCell, stateName, statusMessage, viewOf, type ExtensionState, type ExtensionStatus, type HoldReason, type StatusView } from './state.js';
import { UiQueue } from './uiQueue.js';
import type { ExtensionView } from './view.js';

/** What a runtime is made with; SpawnConfig holds the environment, the stop ladder's timings and the redaction. */
export interface RuntimeConfig extends SpawnConfig {
  cwd: string;
  zotHome: string;
  hostVersion: string;
  helloTimeoutMs: number;
  autoReadyMs: number;
  restart: RestartBudget;
  /** A policy other than the budget's (HostOptions.restartPolicy). */
  restartPolicy?: (extension: string) => RestartPolicy;
  model(): { provider: string; model: string };
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
  /** The connection is gone; pending requests have already failed. */
  disconnected(rt: ExtensionRuntime): void;
  log(rt: ExtensionRuntime, line: string, kind: 'stderr' | 'host', level: LogLevel): void;
}

type Status = ExtensionStatus<Launch, NodeJS.Timeout>;

export interface CallOpts { token?: CancellationToken | undefined; timeoutMs: number }

export class ExtensionRuntime implements ExtensionView {
  readonly logPath: string;
  version: string | undefined;
  /** What its hello said it can do; read only through the hello that set it. */
  private caps: readonly string[] = [];
  /** Said `tool_cancel` in its hello: read on every call, so kept rather than looked up. */
  private cancels = false;
  readonly registrations = new Registrations();
  readonly problemList: Problems;
  /** Replies that matched nothing pending (late, cancelled or unknown): dropped by design, counted. */
  lateReplies = 0;

  private readonly cell: StateCell<Status>;
  private shown: StatusView;
  private readonly restartPolicy: RestartPolicy;
  private readonly ui: UiQueue;
  /** Launches whose stop ladder is running outside the current state (a failed handshake). */
  private readonly ending = new Set<Launch>();

  constructor(readonly found: FoundExtension, private readonly config: RuntimeConfig, private readonly delegate: RuntimeDelegate) {
    this.logPath = extensionLogPath(config.zotHome, found.name);
    this.version = found.manifest?.version;
    this.restartPolicy = config.restartPolicy?.(found.name) ?? restartBudget(config.restart);
    this.problemList = new Problems((line) => this.log(line, 'warn'), config.redact);
    this.ui = new UiQueue((f) => delegate.handle(this, f), (f, err) => this.addProblem(`handling its "${f.type}" frame failed: ${err.message}`));
    this.cell = new StateCell<Status>(initialStatus(found));
    this.shown = viewOf(this.cell.value);
  }

  get name(): string { return this.found.name; }
  get dir(): string { return this.found.dir; }
  /** The state as views see it (no launch, no timer), made once per change. */
  get status(): StatusView { return this.shown; }
  get state(): ExtensionState { return stateName(this.current); }
  /** Why it failed, is held, disabled or restarting, in a sentence. */
  get error(): string | undefined { return statusMessage(this.current); }
  get commands(): ReadonlyMap<string, Readonly<CommandRegistration>> { return this.registrations.commands; }
  get tools(): ReadonlyMap<string, Readonly<ToolRegistration>> { return this.registrations.tools; }
  get events(): ReadonlySet<string> { return this.registrations.events; }
  get intercepts(): ReadonlySet<string> { return this.registrations.intercepts; }
  get problems(): readonly { time: number; message: string }[] { return this.problemList.items; }
  get droppedProblems(): number { return this.problemList.dropped; }

  get startable(): boolean { return isStartable(this.found); }

  /** Said hello over a connection that is still open: the state says so (a lost connection is a state of its own). */
  get connected(): boolean {
    return isServing(this.current);
  }

  get capabilities(): readonly string[] { return this.caps; }
  get supportsCancel(): boolean { return this.cancels; }
  get pid(): number | undefined { return this.anyLaunch?.pid; }
  get pendingCount(): number { return this.live?.requests.size ?? 0; }

  /** The launch of the current state, if it has one. */
  private get live(): Launch | undefined { return launchOf(this.current); }

  /** The current launch, else one whose failed handshake is still being stopped. */
  private get anyLaunch(): Launch | undefined { return this.live ?? [...this.ending][0]; }

  /** Starts the process. Resolves once it is ready, auto-ready, or failed (the host bounds this wait). */
  start(): Promise<void> {
    if (!this.startable) return Promise.resolve();
    if (canStart(this.current)) {
      this.restartPolicy.reset();
      this.launch();
    }
    return this.whenSettled();
  }

  /** Resolves when the host's ready wait is over for it (ready, auto-ready, failed, stopped…). */
  whenSettled(): Promise<void> {
    return this.cell.until((s) => !isSettling(s));
  }

  /** Resolves once it said hello or failed to: bounded by the hello timeout. */
  whenHelloDecided(): Promise<void> {
    return this.cell.until((s) => s.kind !== 'starting');
  }

  /** The host's ready grace passed: one still registering stops blocking loading. */
  markReadyTimedOut(): void {
    const s = this.current;
    if (s.kind !== 'running' || s.readiness !== 'registering') return;
    this.addProblem('did not finish registering within the ready grace period; loading went on without it');
    this.transition({ kind: 'running', launch: s.launch, readiness: 'timed_out' });
  }

  /** Withheld by the embedding UI (trust, consent): listed, never started. */
  hold(reason: HoldReason, message: string): void {
    if (this.live) return;
    const s = this.current;
    if (s.kind === 'restarting') clearTimeout(s.timer);
    const clash = this.found.yieldedTo ? `; ${this.found.yieldedTo} has the same name and runs instead while this one is held` : '';
    this.transition({ kind: 'held', reason, message: message + clash });
  }

  /** The stop ladder; resolves when every process it started is gone. A second stop while stopping forces the kill. */
  stop(): Promise<void> {
    const s = this.current;
    if (s.kind === 'restarting') {
      clearTimeout(s.timer);
      this.transition({ kind: 'stopped' });
    } else if (s.kind === 'checking') {
      // The gate's answer, when it comes, finds another state and starts nothing.
      this.transition({ kind: 'stopped' });
    } else if (s.kind === 'starting' || s.kind === 'running' || s.kind === 'lost') {
      const launch = s.launch;
      this.transition({ kind: 'stopping', launch });
      void (launch.ended ?? launch.stop()).then(() => { // a ladder begun on a lost connection is joined, not forced
        if (this.current.kind === 'stopping' && this.current.launch === launch) this.transition({ kind: 'stopped' });
      });
    } else if (s.kind === 'stopping') void s.launch.stop();
    const live = this.live;
    return Promise.all([...(live?.ended ? [live.ended] : []), ...[...this.ending].map((l) => l.ended)]).then(() => undefined);
  }

  // ---- requests to the extension ----

  callTool(name: string, args: JsonObject, opts: ToolCallOpts): PendingRequest<ToolOutcome> {
    const l = this.serving();
    if (!l) return settledRequest(toolOutcome('not_run', this.name, this.notRunning()));
    return l.requests.send(new ToolCallSpec(this.name, name, args, opts, this.supportsCancel));
  }

  /** Its tool call in flight with that wire id. */
  toolCall(id: string): ToolCall | undefined {
    return asToolCall(this.live?.requests.get(id));
  }

  /** Its tool calls in flight, oldest first. */
  *toolCalls(): IterableIterator<ToolCall> {
    if (this.live) yield* toolCallsIn(this.live.requests);
  }

  callCommand(name: string, args: string, opts: CallOpts): Promise<CommandOutcome> {
    const l = this.serving();
    if (!l) return Promise.resolve({ outcome: 'not_run', extension: this.name, message: this.notRunning() });
    return l.requests.send(commandSpec(this.name, name, args, opts)).result;
  }

  /** Its answer to an intercepted event, or undefined (allow) when it does not answer in time or goes away. */
  intercept(event: string, payload: EventPayload, timeoutMs: number): Promise<EventInterceptResponseFromExt | undefined> {
    const l = this.serving();
    if (!l) return Promise.resolve(undefined);
    return l.requests.send(interceptSpec(event, payload, timeoutMs, (m) => this.addProblem(m))).result;
  }

  /** Whether the extension answered a request the host gave up on (by its wire id) within `ms`: see RequestTable.lateReply. */
  lateReply(id: string, ms: number): Promise<boolean> { return this.live?.requests.lateReply(id, ms) ?? Promise.resolve(false); }

  /** One-way frames: events, panel keys and sizes, panel closes. Never waits. */
  send(frame: FrameFromHost): void { this.serving()?.transport.send(frame); }

  addProblem(message: string): void { this.problemList.add(message); }

  private setCapabilities(caps: readonly string[]): void {
    this.caps = caps;
    this.cancels = caps.includes('tool_cancel');
  }

  private serving(): Launch | undefined { return this.connected ? this.live : undefined; }

  private notRunning(): string { return `extension "${this.name}" is not running (${this.state})`; }

  // ---- process life ----

  /**
   * The one way a process of this extension starts: the gate is asked first,
   * every time, so code that changed since it was allowed is held, whatever
   * asked for the launch. A stop (or a hold) while the gate is asked wins.
   */
  private launch(): void {
    const gate = this.config.gate;
    if (!gate) return this.spawn();
    const checking: Status = { kind: 'checking' };
    this.transition(checking);
    void askGate(gate, this.found).then((d) => {
      if (this.current !== checking) return;
      if (d.start) this.spawn();
      else this.hold(d.hold ?? 'consent', d.reason);
    });
  }

  private spawn(): void {
    this.setCapabilities([]);
    let l: Launch | undefined;
    const spawned = spawnLaunch({ name: this.name, dir: this.dir, manifest: this.found.manifest!, logPath: this.logPath }, this.config, {
      frame: (f) => l && this.onFrame(l, f),
      problem: (msg, about) => l && this.onBadFrame(l, msg, about),
      closed: (reason) => l && this.onDisconnect(l, reason),
      stderrLine: (line) => this.delegate.log(this, line, 'stderr', 'info'),
      note: (line) => this.delegate.log(this, line, 'host', 'info'),
      exited: (how) => l && this.onExit(l, how),
    });
    if (!spawned.ok) {
      this.fail(spawned.error);
      const failed = this.current;
      void spawned.later?.then((message) => this.current === failed && this.fail(message));
      return;
    }
    const launch = spawned.launch;
    l = launch;
    this.transition({ kind: 'starting', launch });
    launch.helloTimer.arm(this.config.helloTimeoutMs, () => {
      if (this.live === launch && !launch.gotHello) this.failLaunch(launch, `did not say hello within ${formatMs(this.config.helloTimeoutMs)}; see its log at ${this.logPath}`);
    });
  }

  private onFrame(l: Launch, frame: FrameFromExt): void {
    if (this.live !== l || l.rejected) return;
    if (!l.gotHello) {
      if (this.current.kind === 'stopping') return; // a hello after a stop must not revive it (nor restart it)
      if (frame.type !== 'hello') return this.failLaunch(l, `its first frame was "${frame.type}", not "hello"`);
      return this.onHello(l, frame);
    }
    if (l.autoReadyTimer.armed) this.armAutoReady(l);
    switch (frame.type) {
      case 'tool_result':
      case 'command_response':
      case 'event_intercept_response':
        if (!l.requests.answer(frame.id, frame)) this.lateReplies++;
        return;
      case 'error':
        if (frame.id === undefined || !l.requests.answer(frame.id, frame as ReplyFrame)) this.addProblem(`the extension reported an error: ${frame.message ?? '(no message)'}`);
        return;
      case 'register_command':
      case 'register_tool':
      case 'subscribe':
        if (this.registrations.apply(frame as RegistrationFrame, (m) => this.addProblem(m))) this.delegate.registrationsChanged(this);
        return;
      case 'ready': {
        l.autoReadyTimer.clear();
        const s = this.current;
        if (s.kind === 'running' && s.readiness !== 'ready') this.transition({ kind: 'running', launch: l, readiness: 'ready' });
        return;
      }
      case 'hello':
        return this.addProblem('sent hello a second time; ignored');
      case 'shutdown_ack':
        return;
      default:
        this.ui.push(frame);
    }
  }

  private onHello(l: Launch, hello: Extract<FrameFromExt, { type: 'hello' }>): void {
    l.gotHello = true;
    l.helloTimer.clear();
    this.setCapabilities(hello.capabilities ?? []);
    if (hello.version) this.version = hello.version;
    if (hello.name !== this.name) this.addProblem(`hello names it "${hello.name}"; its manifest name "${this.name}" is used`);
    // As zot: the extension's folder is its data_dir too.
    l.transport.send({ type: 'hello_ack', protocol_version: PROTOCOL_VERSION, zot_version: ZOT_PROTOCOL_RELEASE, host_version: this.config.hostVersion, ...this.config.model(), cwd: this.found.projectDir ?? this.config.cwd, extension_dir: this.dir, data_dir: this.dir });
    this.transition({ kind: 'running', launch: l, readiness: 'registering' });
    this.armAutoReady(l);
  }

  private onBadFrame(l: Launch, message: string, about?: { type?: string; id?: string }): void {
    if (this.live !== l) return;
    // An intercept's own diagnostic says what became of the event: one is enough.
    if (about?.id !== undefined && isReplyType(about.type) && l.requests.malformed(about.id, message) && about.type === 'event_intercept_response') return;
    this.addProblem(message);
  }

  /** The connection is gone: fail what waits on it at once, forget registrations, make sure the process ends. */
  private onDisconnect(l: Launch, reason: string): void {
    l.end();
    l.requests.closeAll(l.process.exit ?? `closed its connection (${reason})`);
    if (this.live !== l) return;
    // A running extension whose connection went is no longer running: views see it at once.
    if (this.current.kind === 'running') this.transition({ kind: 'lost', launch: l, reason });
    if (this.registrations.clear()) this.delegate.registrationsChanged(this);
    this.delegate.disconnected(this);
    if (!l.process.exit && !l.process.stopRequested) {
      l.process.note(`connection lost: ${reason}; stopping the process`);
      void l.stop();
    }
  }

  private onExit(l: Launch, how: string): void {
    l.transport.close(how);
    l.end();
    // A stopping process's grandchildren are ended by its ladder; a crashed one's here.
    l.process.reap();
    const s = this.current;
    if (this.live !== l || s.kind === 'stopping') return;
    if (s.kind === 'starting') {
      // The log is the first place the message sends people: let it hold what the process said.
      const message = `${how} before sending hello; see its log at ${this.logPath}`;
      void within(l.process.log.closed, 1000).then(() => this.current === s && this.fail(message));
      return;
    }
    const next = afterCrash(this.restartPolicy.crashed(Date.now()), how, this.logPath);
    if (next.kind === 'failed') return this.fail(next.message);
    const timer = setTimeout(() => {
      const now = this.current;
      if (now.kind === 'restarting' && now.timer === timer) this.launch();
    }, next.delayMs);
    this.transition({ ...next, timer });
  }

  /** Loading of a running process failed: it is stopped and not restarted. */
  private failLaunch(l: Launch, message: string): void {
    l.rejected = true;
    this.ending.add(l);
    this.fail(message);
    void l.stop().then(() => this.ending.delete(l));
  }

  private fail(message: string): void {
    this.addProblem(message);
    this.transition({ kind: 'failed', message });
  }

  /** The one place the state changes. */
  private transition(next: Status): void {
    const old = this.shown;
    this.cell.set(next);
    this.shown = viewOf(next);
    this.delegate.stateChanged(this, old, this.shown);
  }

  private get current(): Status { return this.cell.value; }

  /** After hello, a quiet spell without `ready` counts as ready (zot: 250 ms). */
  private armAutoReady(l: Launch): void {
    l.autoReadyTimer.clear();
    const waiting = (s: Status): boolean => s.kind === 'running' && s.launch === l && (s.readiness === 'registering' || s.readiness === 'timed_out');
    if (!waiting(this.current)) return;
    l.autoReadyTimer.arm(this.config.autoReadyMs, () => {
      if (waiting(this.current)) this.transition({ kind: 'running', launch: l, readiness: 'auto_ready' });
    });
  }

  log(raw: string, level: LogLevel): void {
    const line = this.config.redact?.(raw) ?? raw;
    this.anyLaunch?.process.log.hostLine(line);
    this.delegate.log(this, line, 'host', level);
  }
}

