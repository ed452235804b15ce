/**
 * One extension's life, as moves between the states of state.ts: launch,
 * handshake, its registrations, requests to it, restarts after a crash and
 * the stop. Every move goes through `transition`, which tells the host
 * `{old, new}`. What its frames do (the handshake, their routing) is
 * reading.ts; what it is made with and how it reports to the host,
 * contract.ts; the registry of all extensions lives in registry/registry.ts.
 */
import type { FrameFromHost, InterceptableEvent, InterceptMap, JsonObject } from '../../protocol/index.js';
import { settledRequest, type PendingRequest } from '../connection/requests.js';
import type { FoundExtension } from '../discovery/discover.js';
import { extensionLogPath } from '../discovery/paths.js';
import { askGate } from './gate.js';
import { toolOutcome, type CommandOutcome, type ToolOutcome } from '../results/outcomes.js';
import { within } from '../process/child.js';
import { asToolCall, commandSpec, interceptSpec, ToolCallSpec, toolCallsIn, type GuardEnding, type ToolCall, type ToolCallOpts } from './calls.js';
import { spawnLaunch, type Launch } from './launch.js';
import type { ContextCard } from '../terva/notices.js';
import { TervaLink } from '../terva/link.js';
import { Problems } from './problems.js';
import type { LogLevel } from '../port.js';
import { armHello, onBadFrame, onFrame, type RuntimeCore, type Status } from './reading.js';
import { Registrations, type CommandRegistration, type ToolRegistration } from './registrations.js';
import { afterCrash, restartBudget, type RestartPolicy } from './restartPolicy.js';
import { canStart, initialStatus, isServing, isStartable, isSettling, launchOf, StateCell, stateName, statusMessage, viewOf, type ExtensionState, type HoldReason, type StatusView } from './state.js';
import { UiQueue } from './uiQueue.js';
import type { ExtensionView } from './view.js';
import type { CallOpts, RuntimeConfig, RuntimeDelegate } from './contract.js';

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
  /** Its launcher's last `bootstrap` line of the latest launch: what it was building, even once it failed. */
  private bootstrapText: string | undefined;
  /** terva's side of the wire: what its notices said, its requests, the settings it was told. */
  private readonly terva: TervaLink;

  private readonly cell: StateCell<Status>;
  private shown: StatusView;
  private readonly restartPolicy: RestartPolicy;
  private readonly ui: UiQueue;
  /** Launches whose stop ladder is running outside the current state (a failed handshake). */
  private readonly ending = new Set<Launch>();
  /** What reading a launch's frames sees of this runtime (reading.ts). */
  private readonly core: RuntimeCore;

  constructor(readonly found: FoundExtension, private readonly config: RuntimeConfig, private readonly delegate: RuntimeDelegate) {
    this.logPath = extensionLogPath(config.zotHome, found.name);
    this.version = found.manifest?.version;
    this.restartPolicy = config.restartPolicy?.(found.name) ?? restartBudget(config.restart);
    this.problemList = new Problems((line) => this.log(line, 'warn'), config.redact);
    this.ui = new UiQueue((f) => delegate.handle(this, f), (f, err) => this.addProblem(`handling its "${f.type}" frame failed: ${err.message}`), (f) => delegate.arrived(this, f));
    this.cell = new StateCell<Status>(initialStatus(found));
    this.shown = viewOf(this.cell.value);
    this.terva = new TervaLink({
      log: (line, level) => this.log(line, level),
      changed: (what) => {
        delegate.tervaChanged(this, what);
        if (what === 'withdrawn') delegate.registrationsChanged(this);
      },
      toolNames: () => this.registrations.tools.keys(),
      settings: () => config.configFor?.(found),
      answer: (frame, token) => delegate.answer(this, frame, token),
    });
    const rt = this;
    this.core = {
      name: found.name, found, logPath: this.logPath, config, registrations: this.registrations, terva: this.terva, ui: this.ui,
      get current() { return rt.current; },
      get live() { return rt.live; },
      transition: (next) => this.transition(next),
      failLaunch: (l, message) => this.failLaunch(l, message),
      addProblem: (message) => this.addProblem(message),
      log: (line, level) => this.log(line, level),
      registrationsChanged: () => delegate.registrationsChanged(this),
      lateReply: () => void this.lateReplies++,
      helloSaid: (caps, version) => {
        this.setCapabilities(caps);
        if (version) this.version = version;
      },
      bootstrapped: (text) => void (this.bootstrapText = text),
      callTool: (frame) => delegate.callTool(this, frame),
    };
  }

  get name(): string { return this.found.name; }
  get dir(): string { return this.found.dir; }
  /** The state as views see it (no launch, no timer), made once per change. */
  get status(): StatusView { return this.shown; }
  /** The flat name, for the host's own reports and messages; a view derives it: stateOf(view). */
  get state(): ExtensionState { return stateName(this.current); }
  /** Why it failed, is held, disabled or restarting, in a sentence. */
  get error(): string | undefined { return statusMessage(this.current); }
  get commands(): ReadonlyMap<string, Readonly<CommandRegistration>> { return this.registrations.commands; }
  get tools(): ReadonlyMap<string, Readonly<ToolRegistration>> { return this.registrations.tools; }
  get events(): ReadonlySet<string> { return this.registrations.events; }
  get intercepts(): ReadonlySet<string> { return this.registrations.intercepts; }
  get problems(): readonly { time: number; message: string }[] { return this.problemList.items; }
  get bootstrap(): string | undefined { return this.bootstrapText; }
  get notes(): readonly string[] { return this.terva.notes; }
  get context(): string | undefined { return this.terva.state.context; }
  get cards(): ReadonlyMap<string, Readonly<ContextCard>> { return this.terva.state.cards; }
  get segments(): ReadonlyMap<string, string> { return this.terva.state.segments; }
  get withdrawn(): ReadonlySet<string> { return this.terva.state.withdrawn; }
  get droppedProblems(): number { return this.problemList.dropped; }

  get startable(): boolean { return isStartable(this.found); }

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

  /** Its answer to an intercepted event, or how it ended without one (allow): no answer in time, a malformed one, gone. */
  intercept<K extends InterceptableEvent>(event: K, payload: InterceptMap[K], timeoutMs: number): Promise<GuardEnding> {
    const l = this.serving();
    if (!l) return Promise.resolve({ kind: 'gone', said: `went away while asked the ${event} intercept` });
    return l.requests.send(interceptSpec(event, payload, timeoutMs, (m) => this.addProblem(m))).result;
  }

  /** Whether the extension answered a request the host gave up on (by its wire id) within `ms`: see RequestTable.lateReply. */
  lateReply(id: string, ms: number): Promise<boolean> { return this.live?.requests.lateReply(id, ms) ?? Promise.resolve(false); }

  /** One-way frames: events, panel keys and sizes, panel closes, answers to its `call_tool`. Never waits. */
  send(frame: FrameFromHost): void { this.serving()?.transport.send(frame); }

  addProblem(message: string): void { this.problemList.add(message); }

  private setCapabilities(caps: readonly string[]): void {
    this.caps = caps;
    this.cancels = caps.includes('tool_cancel');
  }

  /** The launch while it serves: said hello over a connection still open (a lost connection is a state of its own). */
  private serving(): Launch | undefined { return isServing(this.current) ? this.live : undefined; }

  /**
   * The user changed settings: the whole new map for a running extension
   * that subscribed to config_update, once per change (docs/TERVA.md 18);
   * undefined when it gets none.
   */
  changedSettings(): JsonObject | undefined {
    if (!this.serving() || !this.registrations.events.has('config_update')) return undefined;
    return this.terva.changedSettings();
  }

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
    this.bootstrapText = undefined;
    this.terva.reset();
    for (const d of this.found.manifest?.configDropped ?? []) this.log(`extension.json: ${d}`, 'warn');
    let l: Launch | undefined;
    const spawned = spawnLaunch({ name: this.name, dir: this.dir, manifest: this.found.manifest!, logPath: this.logPath }, this.config, {
      frame: (f) => l && onFrame(this.core, l, f),
      problem: (msg, about) => l && onBadFrame(this.core, l, msg, about),
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
    armHello(this.core, launch);
  }

  /** The connection is gone: fail what waits on it at once, forget registrations, make sure the process ends. */
  private onDisconnect(l: Launch, reason: string): void {
    l.end();
    l.requests.closeAll(l.process.exit ?? `closed its connection (${reason})`);
    if (this.live !== l) return;
    // A running extension whose connection went is no longer running: views see it at once.
    if (this.current.kind === 'running') this.transition({ kind: 'lost', launch: l, reason });
    if (this.registrations.clear()) this.delegate.registrationsChanged(this);
    this.terva.forget();
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

  log(raw: string, level: LogLevel): void {
    const line = this.config.redact?.(raw) ?? raw;
    this.anyLaunch?.process.log.hostLine(line);
    this.delegate.log(this, line, 'host', level);
  }
}

