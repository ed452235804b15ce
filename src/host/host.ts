/**
 * The host: every extension found, the registries of their commands and
 * tools, routing of calls, events and intercepts, panels, reload and
 * disposal. One extension's process life is in extension.ts.
 */
import { Emitter, type CancellationToken, type Disposable, type Event } from 'vscode-jsonrpc/node';
import {
  DEFAULT_MAX_LINE_BYTES, NOTIFY_LEVELS,
  type CommandResponseFromExt, type EventPayload, type FrameFromExt, type InterceptableEvent, type JsonObject,
  type NotifyLevel, type PanelKey, type PanelSpec,
} from '../protocol/index.js';
import { discoverExtensions, type FoundExtension } from './discovery.js';
import { ExtensionRuntime, RUNNING_STATES, type RuntimeConfig, type RuntimeDelegate, type ToolRegistration } from './extension.js';
import { nextId } from './ids.js';
import { toolOutcome, type CommandOutcome, type ToolOutcome } from './outcomes.js';
import { defaultZotHome } from './paths.js';
import { signalGroup } from './processGroup.js';
import { HeadlessUI, type HostUI, type Panel } from './ui.js';
import { HOST_VERSION } from './version.js';


export interface Timing {
  helloTimeoutMs: number;
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
  readyGraceMs: 3_000,
  autoReadyMs: 250,
  toolTimeoutMs: 60_000,
  commandTimeoutMs: 60_000,
  interceptTimeoutMs: 5_000,
  writeTimeoutMs: 5_000,
  shutdownGraceMs: 2_000,
  killAfterMs: 1_000,
  restartMax: 4,
  restartWindowMs: 180_000,
  restartBaseDelayMs: 500,
  restartMaxDelayMs: 8_000,
};

export type GateDecision = { start: true } | { start: false; reason: string };

export interface HostOptions {
  /** The project folder: `cwd` in hello_ack and the root of `.zot/extensions`. */
  cwd: string;
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
  /** Decides, per extension, whether it may start (workspace trust, consent). Default: all may. */
  gate?: (ext: FoundExtension) => GateDecision | Promise<GateDecision>;
}

export interface CommandEntry {
  name: string;
  description: string;
  extension: string;
  active: boolean;
  /** The extension that holds the name when this entry is inactive. */
  shadowedBy?: string;
}

export interface ToolEntry extends ToolRegistration {
  extension: string;
  active: boolean;
  shadowedBy?: string;
}

export interface CallOptions {
  token?: CancellationToken;
  /** Reply deadline in ms; 0 for none. Default: the host's, or none for interactive tools. */
  timeoutMs?: number;
}

export type InterceptResult =
  | { blocked: false; payload: EventPayload }
  | { blocked: true; reason: string; by: string };

export interface LogEvent { extension: string; line: string; kind: 'stderr' | 'host' }

interface ActiveCall {
  rt: ExtensionRuntime;
  wireId: string;
  source: CallToken;
  interactive: boolean;
  /** Created when a panel binds to the call. */
  panels?: Set<string>;
}

/**
 * The token of one tool call: a flag and its listeners. A vscode-jsonrpc
 * CancellationTokenSource per call (source, token, emitter, listener list)
 * is a large part of what one call allocates.
 */
class CallToken implements CancellationToken {
  isCancellationRequested = false;
  private listeners: (() => void)[] | undefined;

  onCancellationRequested(listener: (e: unknown) => unknown, thisArgs?: unknown): Disposable {
    const fn = (): void => void listener.call(thisArgs, undefined);
    if (this.isCancellationRequested) {
      fn();
      return { dispose: () => undefined };
    }
    (this.listeners ??= []).push(fn);
    return {
      dispose: () => {
        const i = this.listeners?.indexOf(fn) ?? -1;
        if (i >= 0) this.listeners!.splice(i, 1);
      },
    };
  }

  cancel(): void {
    if (this.isCancellationRequested) return;
    this.isCancellationRequested = true;
    const ls = this.listeners;
    this.listeners = undefined;
    if (ls) for (const l of ls) l();
  }
}

export class ZotHost {
  readonly zotHome: string;
  readonly timing: Timing;
  private runtimes: ExtensionRuntime[] = [];
  private ui: HostUI;
  private model = { provider: '', model: '' };
  private registry: { commands: CommandEntry[]; tools: ToolEntry[]; commandIndex: Map<string, CommandEntry>; toolIndex: Map<string, ToolEntry> } | undefined;
  private registryEventPending = false;
  private reportedShadows = new Set<string>();
  private readonly panels = new Map<string, Panel>();
  /** Calls in flight, by `<extension>\0<wire id>`, for panel binding. */
  private readonly calls = new Map<string, ActiveCall>();
  private loading: Promise<void> = Promise.resolve();
  private disposed = false;

  private readonly stateEmitter = new Emitter<ExtensionRuntime>();
  private readonly registryEmitter = new Emitter<void>();
  private readonly logEmitter = new Emitter<LogEvent>();
  /** An extension changed state (starting, ready, failed…). */
  readonly onDidChangeState: Event<ExtensionRuntime> = this.stateEmitter.event;
  /** Commands, tools or subscriptions changed; coalesced. */
  readonly onDidChangeRegistry: Event<void> = this.registryEmitter.event;
  /** A line of an extension's stderr, or a host event about it. */
  readonly onLog: Event<LogEvent> = this.logEmitter.event;

  constructor(private readonly options: HostOptions) {
    this.zotHome = options.zotHome ?? defaultZotHome(options.env ?? process.env);
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    this.ui = options.ui ?? new HeadlessUI();
    liveHosts.add(this);
    ensureExitHook();
  }

  get extensions(): readonly ExtensionRuntime[] {
    return this.runtimes;
  }

  get interactive(): boolean {
    return this.ui.interactive;
  }

  get(name: string): ExtensionRuntime | undefined {
    return this.runtimes.find((r) => r.name === name);
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

  /** Stops everything, forgets all registrations, discovers and starts again. */
  reload(): Promise<void> {
    this.loading = this.loading.then(async () => {
      await this.stopAll();
      await this.load();
    });
    return this.loading;
  }

  /** Stops every extension; resolves when every child and grandchild is gone. */
  async dispose(): Promise<void> {
    if (this.disposed) return this.loading;
    this.disposed = true;
    this.loading = this.loading.then(() => this.stopAll());
    await this.loading;
    liveHosts.delete(this);
  }

  /** Starts one extension (a stopped, failed or held one), waiting for its ready within the grace. */
  async startExtension(name: string): Promise<void> {
    const rt = this.get(name);
    if (!rt) throw new Error(`no extension named "${name}"`);
    await this.startWithGrace([rt]);
  }

  async stopExtension(name: string): Promise<void> {
    const rt = this.get(name);
    if (!rt) throw new Error(`no extension named "${name}"`);
    await rt.stop();
  }

  async restartExtension(name: string): Promise<void> {
    await this.stopExtension(name);
    await this.startExtension(name);
  }

  /** The chat model in use, for later hello_ack frames. */
  setModel(provider: string, model: string): void {
    this.model = { provider, model };
  }

  // ---- registries ----

  commands(): readonly CommandEntry[] {
    return this.computeRegistry().commands;
  }

  tools(): readonly ToolEntry[] {
    return this.computeRegistry().tools;
  }

  /** The active command of that name (case-insensitive). */
  findCommand(name: string): CommandEntry | undefined {
    return this.computeRegistry().commandIndex.get(name.toLowerCase());
  }

  /** The active tool of that name (exact). */
  findTool(name: string): ToolEntry | undefined {
    return this.computeRegistry().toolIndex.get(name);
  }

  // ---- calls ----

  /** Calls a tool. Never throws for the outcomes of a call; always resolves exactly once. */
  invokeTool(name: string, args: JsonObject | undefined, opts: CallOptions = {}): Promise<ToolOutcome> {
    const tool = this.findTool(name);
    if (!tool) return Promise.resolve(toolOutcome('not_run', null, `no running extension provides the tool "${name}"`));
    const rt = this.get(tool.extension)!;
    if (tool.interactive && !this.ui.interactive) {
      return Promise.resolve(toolOutcome('not_run', rt.name, 'interactive extension tools require an interactive host'));
    }
    const timeoutMs = opts.timeoutMs ?? (tool.interactive ? 0 : this.timing.toolTimeoutMs);
    const wireId = nextId();
    const key = `${rt.name}\0${wireId}`;
    const source = new CallToken();
    const call: ActiveCall = { rt, wireId, source, interactive: tool.interactive };
    const link = opts.token?.onCancellationRequested(() => source.cancel());
    if (opts.token?.isCancellationRequested) source.cancel();
    this.calls.set(key, call);
    const settled = (outcome: ToolOutcome): void => {
      this.calls.delete(key);
      link?.dispose();
      // A call that ends any other way than completing takes its panels with it.
      if (outcome.outcome !== 'completed' && call.panels) for (const p of call.panels) this.closePanelFromHost(p);
    };
    return rt.callTool(tool.name, args ?? {}, { token: source, timeoutMs, wireId, settled });
  }

  /** Invokes a command and returns its response; the caller applies it. */
  invokeCommand(name: string, args: string, opts: CallOptions = {}): Promise<CommandOutcome> {
    const cmd = this.findCommand(name);
    if (!cmd) return Promise.resolve({ outcome: 'not_run', extension: null, message: `no running extension provides the command "${name}"` });
    const rt = this.get(cmd.extension)!;
    return rt.callCommand(cmd.name, args.trim(), { ...opts, timeoutMs: opts.timeoutMs ?? this.timing.commandTimeoutMs });
  }

  /** Invokes a command and carries out its action through the UI, as zot does for a typed slash command. */
  async runCommand(name: string, args: string, opts: CallOptions = {}): Promise<CommandOutcome> {
    const outcome = await this.invokeCommand(name, args, opts);
    const rt = outcome.extension ? this.get(outcome.extension) : undefined;
    if (outcome.outcome !== 'completed' || !outcome.response || !rt) return outcome;
    await this.applyCommandResponse(rt, outcome.response);
    return outcome;
  }

  async applyCommandResponse(ext: ExtensionRuntime, r: CommandResponseFromExt): Promise<void> {
    if (r.error) return this.ui.notify(ext, 'error', `/${ext.name}: ${r.error}`);
    switch (r.action) {
      case 'prompt': return r.prompt ? this.ui.submit(ext, r.prompt) : undefined;
      case 'insert': return r.insert ? this.ui.insert(ext, r.insert) : undefined;
      case 'display': return r.display ? this.ui.display(ext, r.display) : undefined;
      case 'open_panel': return r.open_panel ? this.openPanel(ext, r.open_panel) : undefined;
      default: return undefined;
    }
  }

  /** The agent's path for a tool call: intercepts, the `tool_call` event, then the call. */
  async runToolCall(name: string, args: JsonObject | undefined, opts: CallOptions & { toolId?: string } = {}): Promise<ToolOutcome> {
    const toolId = opts.toolId ?? `call-${nextId()}`;
    const verdict = await this.intercept('tool_call', { tool_id: toolId, tool_name: name, tool_args: args ?? {} });
    if (verdict.blocked) {
      const owner = this.findTool(name)?.extension ?? null;
      return { ...toolOutcome('not_run', owner, `blocked by extension "${verdict.by}": ${verdict.reason}`), content: [{ type: 'text', text: verdict.reason }] };
    }
    const finalArgs = verdict.payload.tool_args ?? {};
    this.emit('tool_call', { tool_id: toolId, tool_name: name, tool_args: finalArgs });
    return this.invokeTool(name, finalArgs, opts);
  }

  // ---- events and intercepts ----

  /** Fire-and-forget: queued to every subscriber, never awaited. */
  emit(event: string, payload: EventPayload = {}): void {
    for (const rt of this.runtimes) {
      if (rt.events.has(event)) rt.send({ ...payload, type: 'event', event });
    }
  }

  /**
   * Asks every subscriber of an interceptable event, one after another in load
   * order. The first block wins; `modified_args` and `replace_text` chain.
   * A subscriber that does not answer in time counts as allow.
   */
  async intercept(event: InterceptableEvent, payload: EventPayload): Promise<InterceptResult> {
    let current: EventPayload = { ...payload };
    for (const rt of this.runtimes) {
      if (!rt.intercepts.has(event) || !rt.connected) continue;
      const answer = await rt.intercept(event, current, this.timing.interceptTimeoutMs);
      if (!answer) continue;
      if (answer.block) return { blocked: true, reason: answer.reason || `blocked by ${rt.name}`, by: rt.name };
      if (answer.modified_args !== undefined) {
        const m = answer.modified_args;
        if (event === 'tool_call' && typeof m === 'object' && m !== null && !Array.isArray(m)) current = { ...current, tool_args: m };
        else rt.addProblem(`ignored modified_args in its ${event} intercept answer: it must be an object${event === 'tool_call' ? '' : ', on a tool_call'}`);
      }
      if (answer.replace_text !== undefined && event === 'assistant_message') current = { ...current, text: answer.replace_text };
    }
    return { blocked: false, payload: current };
  }

  // ---- panels ----

  get openPanels(): readonly Panel[] {
    return [...this.panels.values()];
  }

  /** Opens (or replaces) a panel of an extension, binding it to the interactive call it serves. */
  async openPanel(ext: ExtensionRuntime, spec: PanelSpec): Promise<void> {
    const key = `${ext.name}\0${spec.id}`;
    const existing = this.panels.get(key);
    const call = this.callForPanel(ext, spec.tool_call_id);
    const panel: Panel = existing ?? { key, extension: ext, id: spec.id, title: '', lines: [], footer: '', forToolCall: false };
    panel.title = spec.title ?? '';
    panel.lines = spec.lines ?? [];
    panel.footer = spec.footer ?? '';
    if (call) {
      panel.boundCall = `${ext.name}\0${call.wireId}`;
      panel.forToolCall = true;
      (call.panels ??= new Set()).add(key);
    }
    this.panels.set(key, panel);
    if (!this.ui.interactive && call) {
      // Nobody can answer it here; the call was refused before it started, so this is only a stray panel.
      ext.addProblem(`opened panel "${spec.id}" on a host that cannot show panels`);
    }
    await (existing ? this.ui.renderPanel(panel) : this.ui.openPanel(panel));
  }

  /** A key the user pressed in a panel. */
  panelKey(panelKey: string, key: PanelKey, text?: string): void {
    const p = this.panels.get(panelKey);
    if (!p) return;
    const rt = this.get(p.extension.name);
    rt?.send(key === 'rune' ? { type: 'panel_key', panel_id: p.id, key, text: text ?? '' } : { type: 'panel_key', panel_id: p.id, key });
  }

  /** The panel's size in columns and rows. */
  panelResize(panelKey: string, width: number, height: number): void {
    const p = this.panels.get(panelKey);
    if (p) this.get(p.extension.name)?.send({ type: 'panel_resize', panel_id: p.id, width: Math.max(1, Math.floor(width)), height: Math.max(1, Math.floor(height)) });
  }

  /** The user closed the panel: tell the extension, and cancel the call it served. */
  panelClosedByUser(panelKey: string): void {
    const p = this.forgetPanel(panelKey);
    if (p?.boundCall) this.calls.get(p.boundCall)?.source.cancel();
  }

  private callForPanel(ext: ExtensionRuntime, toolCallId: string | undefined): ActiveCall | undefined {
    if (toolCallId !== undefined) return this.calls.get(`${ext.name}\0${toolCallId}`);
    // Without an explicit binding: the newest interactive call of this extension that has no panel yet.
    let found: ActiveCall | undefined;
    for (const c of this.calls.values()) if (c.rt === ext && c.interactive && !c.panels?.size) found = c;
    return found;
  }

  /** The host ends a panel (its call ended, its extension went away): the UI closes it and the extension is told. */
  private closePanelFromHost(panelKey: string): void {
    const p = this.forgetPanel(panelKey);
    if (p) void Promise.resolve(this.ui.closePanel(p)).catch(() => undefined);
  }

  /** Stops tracking a panel and tells its extension it closed. */
  private forgetPanel(panelKey: string): Panel | undefined {
    const p = this.panels.get(panelKey);
    if (!p) return undefined;
    this.panels.delete(panelKey);
    this.get(p.extension.name)?.send({ type: 'panel_close', panel_id: p.id });
    return p;
  }

  // ---- diagnostics ----

  diagnostics(): ExtensionReport[] {
    const reg = this.computeRegistry();
    return this.runtimes.map((rt) => ({
      name: rt.name,
      version: rt.version ?? null,
      dir: rt.dir,
      source: rt.found.source,
      log: rt.logPath,
      state: rt.state,
      assets_only: rt.found.assetsOnly,
      pid: rt.pid ?? null,
      capabilities: [...rt.capabilities],
      commands: reg.commands.filter((c) => c.extension === rt.name).map((c) => ({ name: c.name, description: c.description, active: c.active, ...(c.shadowedBy && { shadowed_by: c.shadowedBy }) })),
      tools: reg.tools.filter((t) => t.extension === rt.name).map((t) => ({ name: t.name, description: t.description, active: t.active, interactive: t.interactive, ...(t.shadowedBy && { shadowed_by: t.shadowedBy }) })),
      subscriptions: { events: [...rt.events], intercept: [...rt.intercepts] },
      diagnostics: rt.problems.map((p) => p.message),
      dropped_diagnostics: rt.droppedProblems,
      late_replies: rt.lateReplies,
      error: rt.state === 'failed' || rt.state === 'disabled' || rt.state === 'held' || rt.state === 'restarting' ? rt.error ?? null : null,
    }));
  }

  // ---- internals ----

  private async load(): Promise<void> {
    if (this.disposed) return;
    const found = discoverExtensions({
      projectDir: this.options.cwd,
      zotHome: this.zotHome,
      explicit: this.options.extensionPaths ?? [],
      discover: this.options.discover !== false,
    });
    const delegate = this.delegate();
    const config = this.runtimeConfig();
    this.runtimes = found.map((f) => new ExtensionRuntime(f, config, delegate));
    this.reportedShadows.clear();
    this.invalidateRegistry();
    for (const rt of this.runtimes) this.stateEmitter.fire(rt);
    const toStart: ExtensionRuntime[] = [];
    for (const rt of this.runtimes) {
      if (!rt.startable) continue;
      const decision = this.options.gate ? await this.options.gate(rt.found) : { start: true as const };
      if (decision.start) toStart.push(rt);
      else rt.hold(decision.reason);
    }
    await this.startWithGrace(toStart);
  }

  private async startWithGrace(rts: ExtensionRuntime[]): Promise<void> {
    if (rts.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((r) => (timer = setTimeout(r, this.timing.readyGraceMs)));
    await Promise.race([Promise.all(rts.map((rt) => rt.start())), grace]);
    clearTimeout(timer);
    for (const rt of rts) rt.markReadyTimedOut();
  }

  private async stopAll(): Promise<void> {
    for (const p of [...this.panels.values()]) {
      this.panels.delete(p.key);
      await Promise.resolve(this.ui.closePanel(p)).catch(() => undefined);
    }
    await Promise.all(this.runtimes.map((rt) => rt.stop()));
    this.invalidateRegistry();
  }

  private runtimeConfig(): RuntimeConfig {
    const t = this.timing;
    return {
      cwd: this.options.cwd,
      zotHome: this.zotHome,
      hostVersion: this.options.hostVersion ?? HOST_VERSION,
      env: this.options.env ?? process.env,
      helloTimeoutMs: t.helloTimeoutMs,
      autoReadyMs: t.autoReadyMs,
      writeTimeoutMs: t.writeTimeoutMs,
      shutdownGraceMs: t.shutdownGraceMs,
      killAfterMs: t.killAfterMs,
      maxLineBytes: this.options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      restart: { max: t.restartMax, windowMs: t.restartWindowMs, baseDelayMs: t.restartBaseDelayMs, maxDelayMs: t.restartMaxDelayMs },
      model: () => this.model,
    };
  }

  private delegate(): RuntimeDelegate {
    return {
      stateChanged: (rt) => this.stateEmitter.fire(rt),
      registrationsChanged: () => this.invalidateRegistry(),
      handle: (rt, frame) => this.handleUiFrame(rt, frame),
      disconnected: (rt) => {
        for (const p of [...this.panels.values()]) if (p.extension === rt) this.closePanelFromHost(p.key);
      },
      log: (rt, line, kind) => this.logEmitter.fire({ extension: rt.name, line, kind }),
    };
  }

  /** UI-facing frames, run in order per extension, never on the read path. */
  private async handleUiFrame(rt: ExtensionRuntime, frame: FrameFromExt): Promise<void> {
    switch (frame.type) {
      case 'notify': {
        const level: NotifyLevel = (NOTIFY_LEVELS as readonly string[]).includes(frame.level ?? '') ? (frame.level as NotifyLevel) : 'info';
        return this.ui.notify(rt, level, frame.message);
      }
      case 'clear_notes':
        return this.ui.clearNotes(rt);
      case 'submit':
        return frame.text.trim() ? this.ui.submit(rt, frame.text) : undefined;
      case 'submit_slash': {
        const text = frame.text.trim();
        if (!text.startsWith('/')) {
          rt.addProblem(`submit_slash refused: "${text.slice(0, 80)}" does not start with "/"`);
          return undefined;
        }
        return this.ui.submitSlash(rt, text);
      }
      case 'open_panel':
        return this.openPanel(rt, frame.panel);
      case 'panel_render': {
        const p = this.panels.get(`${rt.name}\0${frame.panel_id}`);
        if (!p) {
          rt.addProblem(`panel_render for "${frame.panel_id}", which is not open`);
          return undefined;
        }
        if (frame.title !== undefined) p.title = frame.title;
        if (frame.lines !== undefined) p.lines = frame.lines;
        if (frame.footer !== undefined) p.footer = frame.footer;
        return this.ui.renderPanel(p);
      }
      case 'panel_close': {
        const key = `${rt.name}\0${frame.panel_id}`;
        const p = this.panels.get(key);
        if (!p) return undefined;
        this.panels.delete(key);
        return this.ui.closePanel(p);
      }
      default:
        rt.addProblem(`unexpected "${frame.type}" frame`);
        return undefined;
    }
  }

  private invalidateRegistry(): void {
    this.registry = undefined;
    if (this.registryEventPending) return;
    this.registryEventPending = true;
    setImmediate(() => {
      this.registryEventPending = false;
      this.computeRegistry();
      this.registryEmitter.fire();
    });
  }

  /** Load order settles every name: the first extension to claim a name holds it, whenever it registered. */
  private computeRegistry(): NonNullable<ZotHost['registry']> {
    if (this.registry) return this.registry;
    const commands: CommandEntry[] = [];
    const tools: ToolEntry[] = [];
    const commandIndex = new Map<string, CommandEntry>();
    const toolIndex = new Map<string, ToolEntry>();
    for (const rt of this.runtimes) {
      if (!rt.connected || (!RUNNING_STATES.has(rt.state) && rt.state !== 'starting')) continue;
      for (const [key, c] of rt.commands) {
        const winner = commandIndex.get(key);
        const entry: CommandEntry = { name: c.name, description: c.description, extension: rt.name, active: !winner };
        if (winner) {
          entry.shadowedBy = winner.extension;
          this.reportShadow(rt, 'command', c.name, winner.extension);
        } else commandIndex.set(key, entry);
        commands.push(entry);
      }
      for (const t of rt.tools.values()) {
        const winner = toolIndex.get(t.name);
        const entry: ToolEntry = { ...t, extension: rt.name, active: !winner };
        if (winner) {
          entry.shadowedBy = winner.extension;
          this.reportShadow(rt, 'tool', t.name, winner.extension);
        } else toolIndex.set(t.name, entry);
        tools.push(entry);
      }
    }
    this.registry = { commands, tools, commandIndex, toolIndex };
    return this.registry;
  }

  private reportShadow(loser: ExtensionRuntime, kind: string, name: string, winner: string): void {
    const key = `${loser.name}\0${kind}\0${name}\0${winner}`;
    if (this.reportedShadows.has(key)) return;
    this.reportedShadows.add(key);
    loser.addProblem(`${kind} "${name}" is shadowed by extension "${winner}", which comes first in load order`);
  }
}

export interface ExtensionReport {
  name: string;
  version: string | null;
  dir: string;
  source: string;
  log: string;
  state: string;
  assets_only: boolean;
  pid: number | null;
  capabilities: string[];
  commands: { name: string; description: string; active: boolean; shadowed_by?: string }[];
  tools: { name: string; description: string; active: boolean; interactive: boolean; shadowed_by?: string }[];
  subscriptions: { events: string[]; intercept: string[] };
  diagnostics: string[];
  dropped_diagnostics: number;
  late_replies: number;
  error: string | null;
}

// ---- nothing outlives the process ----

const liveHosts = new Set<ZotHost>();
let exitHooked = false;

/** If the process exits without disposing its hosts, kill their process groups synchronously. */
function ensureExitHook(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const host of liveHosts) for (const rt of host.extensions) if (rt.pid !== undefined) signalGroup(rt.pid, 'SIGKILL');
  });
}

