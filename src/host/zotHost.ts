/**
 * The host: a thin facade over the registry of extensions (registry/registry.ts),
 * the agent path (agent/agentPath.ts), panels (panels.ts) and diagnostics. Front ends
 * get read-only views of extensions, PanelHandles and events; they change
 * the host only through its methods. Its lifetimes are held in one store.
 */
import { Emitter, type Event } from 'vscode-jsonrpc/node';
import { DEFAULT_MAX_LINE_BYTES, SUPPORTED_EVENTS, type CommandResponseFromExt, type EventMap, type EventName, type InterceptableEvent, type InterceptMap, type PanelSpec, type SessionEndReason } from '../protocol/index.js';
import { AgentPath, type InterceptResult, type ToolCallOptions } from './agent/agentPath.js';
import { runAgentTurn, type ModelPort, type TurnOptions, type TurnResult, type TurnView } from './turn/agentTurn.js';
import type { ActionTaken, CommandRenderer } from './ui/commandResponse.js';
import type { TraceSink } from './connection/frameTrace.js';
import { HostSecrets } from './connection/hostSecrets.js';
import { diagnostics, type ExtensionReport } from './registry/diagnostics.js';
import { defaultZotHome } from './discovery/paths.js';
import type { ExtensionRuntime } from './extension/runtime.js';
import type { RuntimeConfig, RuntimeDelegate } from './extension/contract.js';
import { followFolders, load, startWithGrace, type LoadingDeps } from './registry/loading.js';
import type { HoldReason, StatusView } from './extension/state.js';
import type { ExtensionView } from './extension/view.js';
import { DEFAULT_TIMING, type CallOptions, type HostOptions, type LogEvent, type NoteEvent, type Timing } from './options.js';
import type { CommandOutcome, ToolOutcome } from './results/outcomes.js';
import { Panels } from './ui/panels.js';
import { Registry, type CommandEntry, type ToolEntry } from './registry/registry.js';
import type { HostUI, PanelHandle, PanelUI } from './port.js';
import { HeadlessUI } from './ui/headless.js';
import { dispatchUiFrame, noteLevel } from './ui/frames.js';
import { HOST_VERSION } from './version.js';
import { DisposableStore } from './lifetime.js';
import { answerRequest, type TervaServices } from './terva/services.js';
import type { TervaChange } from './terva/notices.js';
import { contextCards, isZotTool, modelContext, settingsOf, statusSegments, type StatusEntry } from './tervaContext.js';
import { Lifecycle, type SessionStart } from './agent/lifecycle.js';
import { ExtensionCalls } from './agent/extensionCalls.js';
import { CommandPath } from './agent/commands.js';

export interface StateChange { extension: ExtensionView; old: StatusView; new: StatusView }
/** What one of terva's notices changed for an extension. */
export interface TervaEvent { extension: ExtensionView; what: TervaChange }


/**
 * What a view may read of a host: its extensions, their registrations and
 * where it looks for them. Changes go through the owner's operations.
 */
export type HostReader = Pick<ZotHost,
  'zotHome' | 'cwd' | 'projectDirs' | 'timing' | 'interactive' | 'extensions' | 'get' | 'commands' | 'tools' |
  'findCommand' | 'findTool' | 'openPanels' | 'diagnostics' | 'whenLoaded' | 'modelContext' | 'contextCards' | 'statusSegments'>;

/** What a front end may do with a host besides reading it: call into its extensions and follow its events. */
export type HostCalls = HostReader & Pick<ZotHost,
  'invokeCommand' | 'runCommand' | 'runToolCall' | 'runTurn' | 'applyCommandResponse' | 'intercepts' | 'intercept' |
  'emit' | 'beginSession' | 'adoptSession' | 'endSession' | 'session' | 'decided' | 'announceToolCall' | 'openPanel' | 'panelUi' | 'setModel' | 'settingsChanged' | 'onDidChangeState' | 'onDidChangeRegistry' | 'onDidChangeTerva' | 'onLog' | 'onNote'>;

export class ZotHost {
  readonly zotHome: string;
  private readonly timings: Timing;
  private readonly ui: HostUI;
  private model: { provider: string; model: string };
  private folders: readonly string[];
  private loading: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly store = new DisposableStore();
  private readonly registry: Registry;
  private readonly panels: Panels;
  private readonly agent: AgentPath;
  /** Variables added to an extension's environment (a debugger's), by name. */
  private readonly extraEnv = new Map<string, NodeJS.ProcessEnv>();
  /** What the trace and the log lines never write, and the trace's one slot. */
  private readonly secrets: HostSecrets;

  private readonly stateEmitter = this.store.add(new Emitter<StateChange>());
  private readonly registryEmitter = this.store.add(new Emitter<void>());
  private readonly logEmitter = this.store.add(new Emitter<LogEvent>());
  private readonly noteEmitter = this.store.add(new Emitter<NoteEvent>());
  private readonly tervaEmitter = this.store.add(new Emitter<TervaEvent>());
  /** The services that answer terva's requests; each one absent is answered "not supported". */
  private readonly services: TervaServices;
  /** Events as they leave: numbered, with the session they belong to. */
  private readonly lifecycle: Lifecycle;
  /** zot's `call_tool` requests of every extension, through the agent's door. */
  private readonly calls: ExtensionCalls;
  /** Commands carried out through the UI, a typed one's or an extension's submit_slash. */
  private readonly commandPath: CommandPath;
  /** An extension moved between states. */
  readonly onDidChangeState: Event<StateChange> = this.stateEmitter.event;
  /** Commands, tools or subscriptions changed; coalesced. */
  readonly onDidChangeRegistry: Event<void> = this.registryEmitter.event;
  /** A line of an extension's stderr, or a host line about it. */
  readonly onLog: Event<LogEvent> = this.logEmitter.event;
  /** Every `notify` of every extension, as it arrives (the UI shows it too). */
  readonly onNote: Event<NoteEvent> = this.noteEmitter.event;
  /** An extension's model context, cards, status segments or withdrawn tools changed (terva's notices). */
  readonly onDidChangeTerva: Event<TervaEvent> = this.tervaEmitter.event;

  constructor(private readonly options: HostOptions) {
    this.zotHome = options.zotHome ?? defaultZotHome(options.env ?? process.env);
    this.timings = { ...DEFAULT_TIMING, ...options.timing };
    this.ui = options.ui ?? new HeadlessUI();
    this.model = { provider: options.provider ?? '', model: options.model ?? '' };
    this.registry = new Registry(() => this.registryEmitter.fire());
    this.panels = new Panels(() => this.ui);
    this.lifecycle = new Lifecycle(this.registry, () => this.options.cwd);
    this.agent = new AgentPath(this.registry, this.lifecycle, this.timings, () => this.ui.interactive, (rt, id) => this.panels.expect(rt, id));
    this.calls = new ExtensionCalls(this.agent);
    this.commandPath = new CommandPath(this.registry, this.agent, this.ui, this.panels);
    this.folders = [...(options.projectDirs ?? [options.cwd])];
    this.services = { ...options.services };
    this.secrets = new HostSecrets(options.env ?? process.env, {
      toolRedact: (ext, tool) => this.registry.get(ext)?.tools.get(tool)?.display?.redact ?? this.registry.tool(tool)?.entry.display?.redact ?? [],
      secretSettings: (ext) => (this.registry.get(ext)?.found.manifest?.config ?? []).filter((f) => f.secret).map((f) => f.key),
    });
    if (options.trace) this.setTrace(options.trace);
  }

  get timing(): Readonly<Timing> { return this.timings; }
  get extensions(): readonly ExtensionView[] { return this.registry.all; }
  get interactive(): boolean { return this.ui.interactive; }
  /** The host's own way of showing panels (what a call shows its panels with when it brings none). */
  get panelUi(): PanelUI { return this.ui; }
  get openPanels(): readonly PanelHandle[] { return this.panels.list; }
  /** `cwd` of explicit and global extensions. */
  get cwd(): string { return this.options.cwd; }
  /** The project folders whose `.zot/extensions` are loaded, in load order. */
  get projectDirs(): readonly string[] { return this.folders; }

  get(name: string): ExtensionView | undefined { return this.registry.get(name); }

  /** New timeouts; calls and loads from now on use them. */
  setTiming(t: Partial<Timing>): void {
    Object.assign(this.timings, t);
  }

  /** The chat model in use, for later hello_ack frames. */
  setModel(provider: string, model: string): void {
    this.model = { provider, model };
  }

  /** Turns the protocol trace on (every frame of every extension to `sink`) or off; live connections follow at once. */
  setTrace(sink: TraceSink | undefined): void {
    this.secrets.trace(sink);
  }

  /**
   * The user changed extension settings (`names`, or any): each running
   * extension whose resolved settings differ, and that subscribed, gets
   * config_update. New values reach the others at their next start.
   */
  settingsChanged(names?: readonly string[]): void {
    for (const rt of this.registry.all) {
      const config = !names || names.includes(rt.name) ? rt.changedSettings() : undefined;
      if (config) this.lifecycle.emitTo(rt, 'config_update', { config });
    }
  }

  /** The standing model context of the running extensions, wrapped per extension; `only` keeps one's. Empty when none. */
  modelContext(only?: string): string { return modelContext(this.registry.all, only); }
  /** The context cards of the running extensions, for the end of one model request; undefined when none. */
  contextCards(): string | undefined { return contextCards(this.registry.all); }
  /** The status segments of the running extensions, by extension name. */
  statusSegments(): StatusEntry[] { return statusSegments(this.registry.all); }

  /** A value the protocol trace must never write, such as a bearer token. */
  keepSecret(value: string): void {
    this.secrets.keep(value);
  }

  /** Variables added to one extension's environment from its next launch on (undefined: none). */
  setLaunchEnv(name: string, env: NodeJS.ProcessEnv | undefined): void {
    if (env) this.extraEnv.set(name, env);
    else this.extraEnv.delete(name);
  }

  /** Discovers and starts every extension, waiting for all to be ready within the ready grace. */
  start(): Promise<void> {
    this.loading = this.loading.then(() => this.load());
    return this.loading;
  }

  /** Resolves when the current start or reload has finished its ready wait. */
  whenLoaded(): Promise<void> {
    return this.loading;
  }

  /** Resolves once every extension still before its hello has said it or failed to (bounded by the hello timeout). */
  async whenHelloDecided(): Promise<void> {
    await this.loading;
    await Promise.all(this.registry.all.map((rt) => rt.whenHelloDecided()));
  }

  /** Stops everything, forgets all registrations, discovers and starts again. */
  reload(): Promise<void> {
    this.loading = this.loading.then(async () => {
      // zot ends no session for a reload: the stopping extensions are told, the new ones hear the same session.
      this.lifecycle.endForStopping();
      await this.stopAll();
      await this.load();
      this.lifecycle.announceAgain();
    });
    return this.loading;
  }

  /**
   * New project folders (workspace folders added, removed or moved): the
   * extensions of a removed folder stop, an added folder's are found and
   * gated, and every other extension keeps running as it is.
   */
  setProjectDirs(dirs: readonly string[]): Promise<void> {
    const next = [...dirs];
    this.loading = this.loading.then(() => this.changeFolders(next));
    return this.loading;
  }

  /** Stops every extension; resolves when every child and grandchild is gone. */
  async dispose(): Promise<void> {
    if (this.disposed) return this.loading;
    this.disposed = true;
    // Queued ahead of each extension's shutdown: the transport keeps the order.
    this.lifecycle.end('shutdown');
    this.loading = this.loading.then(() => this.stopAll());
    await this.loading;
    this.store.dispose();
  }

  /** Starts one extension (a stopped, failed or held one), waiting for its ready within the grace. */
  async startExtension(name: string): Promise<void> {
    const rt = this.runtime(name);
    // Allowed now, it takes its name back from the one that ran in its place.
    if (rt.found.yieldedTo && rt.status.kind === 'held') return this.reload();
    await startWithGrace([rt], this.timings.readyGraceMs);
  }

  async stopExtension(name: string): Promise<void> {
    await this.runtime(name).stop();
  }

  async restartExtension(name: string): Promise<void> {
    await this.stopExtension(name);
    await this.startExtension(name);
  }

  /** Keeps an extension that is not running from starting, saying why. */
  holdExtension(name: string, reason: HoldReason, message: string): void {
    this.runtime(name).hold(reason, message);
  }

  // ---- registry ----

  commands(): readonly CommandEntry[] { return this.registry.commands(); }
  tools(): readonly ToolEntry[] { return this.registry.tools(); }
  /** The active command of that name (case-insensitive). */
  findCommand(name: string): CommandEntry | undefined { return this.registry.command(name)?.entry; }
  /** The active tool of that name (exact). */
  findTool(name: string): ToolEntry | undefined { return this.registry.tool(name)?.entry; }

  // ---- the agent path ----

  invokeCommand(name: string, args: string, opts?: CallOptions): Promise<CommandOutcome> { return this.agent.invokeCommand(name, args, opts); }
  runToolCall(name: string, args?: unknown, opts?: ToolCallOptions): Promise<ToolOutcome> { return this.agent.runToolCall(name, args, opts); }
  announceToolCall(toolId: string, name: string, args: unknown): boolean { return this.agent.announceToolCall(toolId, name, args); }
  /** An event to its subscribers, with the common fields; sessions begin and end through beginSession and endSession. */
  emit<K extends Exclude<EventName, 'session_start' | 'session_end'>>(event: K, payload: EventMap[K], origin?: string): void { this.agent.emit(event, payload, origin); }
  /**
   * A session becomes the active one (a chat, a CLI run, an MCP server's
   * life): the one before it ends (`session_switch`), then `session_start`.
   * The same id again announces nothing.
   */
  beginSession(start?: SessionStart): void { this.lifecycle.begin(start); }
  /** The session another agent runs, named by a hook's input: announced only when `announce` and it is new. */
  adoptSession(start: SessionStart, announce: boolean): void { this.lifecycle.adopt(start, announce); }
  /** The active session ends (`cwd_change`, `session_switch`, `shutdown`). */
  endSession(reason: SessionEndReason): void { this.lifecycle.end(reason); }
  /** The active session's id and folder, as every event names them. */
  get session(): { id: string | undefined; cwd: string } { return { id: this.lifecycle.sessionId, cwd: this.lifecycle.cwd }; }
  /** zot's `permission_decision` for a call this host itself decided (a modal, a remembered answer). */
  decided(...args: Parameters<AgentPath['decided']>): void { this.agent.decided(...args); }
  intercepts(event: InterceptableEvent): boolean { return this.agent.intercepts(event); }
  intercept<K extends InterceptableEvent>(event: K, payload: InterceptMap[K]): Promise<InterceptResult<K>> { return this.agent.intercept(event, payload); }
  /** One agent turn over a model (see turn/agentTurn.ts): zot's events, intercepts, tool calls and Stop, for any front end. */
  runTurn(port: ModelPort, view: TurnView, opts: TurnOptions): Promise<TurnResult> { return runAgentTurn(this, port, view, opts); }

  /** Invokes a command and carries out its response through the UI, as zot does for a typed slash command. */
  runCommand(name: string, args: string, opts: CallOptions = {}): Promise<CommandOutcome> { return this.commandPath.run(name, args, opts); }
  /**
   * Carries out a command's response: through the UI, except the actions a
   * front end renders itself (`render`). Returns the action taken.
   */
  applyCommandResponse(extension: string, r: CommandResponseFromExt, render: Partial<CommandRenderer<void | Promise<void>>> = {}): Promise<ActionTaken> {
    return this.commandPath.apply(extension, r, render);
  }

  /** Opens (or replaces) a panel of an extension, as its open_panel frame does. */
  openPanel(ext: ExtensionView, spec: PanelSpec): Promise<void> {
    const rt = this.registry.all.find((r) => r === ext);
    if (!rt) return Promise.reject(new Error(`"${ext.name}" is not an extension of this host`));
    return this.panels.openPanel(rt, spec);
  }

  diagnostics(): ExtensionReport[] {
    return diagnostics(this.registry);
  }

  // ---- internals ----

  private runtime(name: string): ExtensionRuntime {
    const rt = this.registry.get(name);
    if (!rt) throw new Error(`no extension named "${name}"`);
    return rt;
  }

  private async load(): Promise<void> {
    if (!this.disposed) await load(this.loadingDeps());
  }

  private async changeFolders(dirs: readonly string[]): Promise<void> {
    if (this.disposed) return;
    // zot: a change of working directory ends the session; the front end begins the next.
    if (dirs[0] !== this.folders[0]) this.lifecycle.end('cwd_change');
    this.folders = dirs;
    await followFolders(this.loadingDeps());
  }

  private loadingDeps(): LoadingDeps {
    return {
      registry: this.registry,
      discovery: () => ({
        projectDir: this.options.cwd,
        projectDirs: this.folders,
        zotHome: this.zotHome,
        explicit: this.options.extensionPaths ?? [],
        discover: this.options.discover !== false,
      }),
      gate: this.options.gate,
      config: () => this.runtimeConfig(),
      delegate: this.delegate(),
      announce: (rt) => this.stateEmitter.fire({ extension: rt, old: rt.status, new: rt.status }),
      readyGraceMs: () => this.timings.readyGraceMs,
    };
  }

  private async stopAll(): Promise<void> {
    await this.panels.closeAll();
    await Promise.all(this.registry.all.map((rt) => rt.stop()));
    this.registry.invalidate();
  }

  private runtimeConfig(): RuntimeConfig {
    const t = this.timings;
    return {
      cwd: this.options.cwd,
      zotHome: this.zotHome,
      hostVersion: this.options.hostVersion ?? HOST_VERSION,
      env: this.options.env ?? process.env,
      helloTimeoutMs: t.helloTimeoutMs,
      bootstrapLimitMs: t.bootstrapLimitMs,
      autoReadyMs: t.autoReadyMs,
      writeTimeoutMs: t.writeTimeoutMs,
      shutdownGraceMs: t.shutdownGraceMs,
      killAfterMs: t.killAfterMs,
      maxLineBytes: this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      restart: { max: t.restartMax, windowMs: t.restartWindowMs, baseDelayMs: t.restartBaseDelayMs, maxDelayMs: t.restartMaxDelayMs },
      model: () => this.model,
      supportedEvents: SUPPORTED_EVENTS,
      configFor: (found) => settingsOf(found, this.options.settings, (v) => this.keepSecret(v)),
      gate: this.options.gate,
      restartPolicy: this.options.restartPolicy,
      redact: this.secrets.redact,
      trace: this.secrets.slot,
      envFor: (name) => {
        const extra = this.extraEnv.get(name);
        return extra && { ...(this.options.env ?? process.env), ...extra };
      },
    };
  }

  private delegate(): RuntimeDelegate {
    return {
      stateChanged: (rt, old, next) => this.stateEmitter.fire({ extension: rt, old, new: next }),
      registrationsChanged: () => this.registry.invalidate(),
      handle: (rt, frame) => dispatchUiFrame(rt, frame, this.ui, this.panels, (from, text) => this.commandPath.slash(from, text)),
      arrived: (rt, frame) => {
        if (frame.type === 'notify') this.noteEmitter.fire({ extension: rt.name, level: noteLevel(frame.level), message: frame.message });
      },
      disconnected: (rt) => {
        this.calls.closed(rt);
        return this.panels.closeAllOf(rt);
      },
      callTool: (rt, frame) => {
        if (frame.type === 'call_tool') this.calls.call(rt, frame);
        else if (frame.type === 'call_tool_cancel') this.calls.cancel(rt, frame.id);
        else this.calls.malformed(rt, frame.id);
      },
      log: (rt, line, kind, level) => this.logEmitter.fire({ extension: rt.name, line, kind, level }),
      tervaChanged: (rt, what) => this.tervaEmitter.fire({ extension: rt, what }),
      answer: (rt, frame, token) => answerRequest(rt, frame, { services: this.services, isZotTool: (name) => isZotTool(name, this.registry), token, guard: (name, args, origin) => this.agent.guardHostCall(name, args, origin) }),
    };
  }
}
