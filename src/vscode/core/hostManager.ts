/**
 * Owns the ZotHost of this window, and is the one way the editor changes it.
 * Settings that are host constructor options (home, explicit paths,
 * timings) replace the host; listeners subscribe here once and keep working
 * across replacements. Every change (start, reload, replacement, folders,
 * and one extension's start, stop, restart or hold) goes through one queue,
 * so none overlaps another. Views read `view` (read-only); front ends call
 * into extensions through `host`; neither can start, stop or reconfigure it.
 */
import * as vscode from 'vscode';
import { DisposableStore, type ExtensionView, type TervaEvent, type HoldReason, type HostCalls, type HostReader, type LogEvent, type NoteEvent, type Timing, type TraceSink, type ZotHost } from '../../host/index.js';

export class HostManager implements vscode.Disposable {
  private current: ZotHost;
  /** The subscriptions to the current host: ended with it. */
  private hostSubs = new DisposableStore();
  /** This manager's own emitters: ended with it. */
  private readonly own = new DisposableStore();
  private queue: Promise<unknown> = Promise.resolve();
  private busy = 0;
  private disposed = false;

  private readonly stateEmitter = this.own.add(new vscode.EventEmitter<ExtensionView>());
  private readonly registryEmitter = this.own.add(new vscode.EventEmitter<void>());
  private readonly logEmitter = this.own.add(new vscode.EventEmitter<LogEvent>());
  private readonly noteEmitter = this.own.add(new vscode.EventEmitter<NoteEvent>());
  private readonly busyEmitter = this.own.add(new vscode.EventEmitter<boolean>());
  private readonly tervaEmitter = this.own.add(new vscode.EventEmitter<TervaEvent>());
  readonly onDidChangeState = this.stateEmitter.event;
  readonly onDidChangeRegistry = this.registryEmitter.event;
  readonly onLog = this.logEmitter.event;
  /** Every extension's notes (the MCP server turns them into progress and log messages). */
  readonly onNote = this.noteEmitter.event;
  /** true while the host is loading (start, reload, replacement). */
  readonly onDidChangeBusy = this.busyEmitter.event;
  /** An extension's context, cards, status segments or withdrawn tools changed (terva's notices). */
  readonly onDidChangeTerva = this.tervaEmitter.event;

  constructor(private readonly create: () => ZotHost) {
    this.current = this.adopt(create());
  }

  /** The current host, read-only: what views show. */
  get view(): HostReader {
    return this.current;
  }

  /** The current host for calls into its extensions (tools, commands, agent turns). */
  get host(): HostCalls {
    return this.current;
  }

  /**
   * Whether an interactive tool's panel is a view inline in VS Code's chat
   * (an MCP App) for agent mode: VS Code's own setting, read at each call,
   * so turning it off shows the next call's panel the editor's way at once.
   */
  showsApps(): boolean {
    return vscode.workspace.getConfiguration('chat.mcp.apps').get<boolean>('enabled', true) !== false;
  }

  /** Settings that apply at once, without a replacement: they change no running extension's state. */
  setTrace(sink: TraceSink | undefined): void {
    this.current.setTrace(sink);
  }

  setTiming(t: Partial<Timing>): void {
    this.current.setTiming(t);
  }

  /** A value the trace and the logs must never show (carried over only by whoever creates the next host). */
  keepSecret(value: string): void {
    this.current.keepSecret(value);
  }

  /** Variables for one extension's next launches (a debugger's), or undefined to drop them. */
  setLaunchEnv(name: string, env: NodeJS.ProcessEnv | undefined): void {
    this.current.setLaunchEnv(name, env);
  }

  get loading(): boolean {
    return this.busy > 0;
  }

  /** Starts the extensions in the background; activation never waits for this. */
  start(): Promise<void> {
    return this.run(() => this.current.start());
  }

  /** Stop everything, discover again, start again. */
  reload(): Promise<void> {
    return this.run(() => this.current.reload());
  }

  /** Workspace folders changed: only their extensions stop or start. */
  setProjectDirs(dirs: readonly string[]): Promise<void> {
    return this.run(() => this.current.setProjectDirs(dirs));
  }

  /** One extension's start (through the consent gate, as every launch), in turn with every other change. */
  startExtension(name: string): Promise<void> {
    return this.run(() => this.current.startExtension(name), false);
  }

  stopExtension(name: string): Promise<void> {
    return this.run(() => this.current.stopExtension(name), false);
  }

  restartExtension(name: string): Promise<void> {
    return this.run(() => this.current.restartExtension(name), false);
  }

  /** Resolves once every start, stop, restart and reload asked for before it is done. */
  settled(): Promise<void> {
    return this.run(async () => undefined, false);
  }

  /** Keeps one that is not running from starting, saying why (a "Don't Allow"). */
  holdExtension(name: string, reason: HoldReason, message: string): Promise<void> {
    return this.run(async () => this.current.holdExtension(name, reason, message), false);
  }

  /** A new host from the current settings, after the old one stopped. */
  replace(): Promise<void> {
    return this.run(async () => {
      const old = this.current;
      this.hostSubs.dispose();
      await old.dispose();
      if (this.disposed) return;
      this.current = this.adopt(this.create());
      this.registryEmitter.fire();
      await this.current.start();
    });
  }

  /** Stops every extension; resolves when all their processes are gone. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    // Not queued behind a slow reload: dispose() of the host waits for its own loading.
    await this.current.dispose();
    this.hostSubs.dispose();
    this.own.dispose();
  }

  private adopt(host: ZotHost): ZotHost {
    this.hostSubs = new DisposableStore();
    this.hostSubs.add(host.onDidChangeState((c) => this.stateEmitter.fire(c.extension)));
    this.hostSubs.add(host.onDidChangeRegistry(() => this.registryEmitter.fire()));
    this.hostSubs.add(host.onLog((e) => this.logEmitter.fire(e)));
    this.hostSubs.add(host.onNote((e) => this.noteEmitter.fire(e)));
    this.hostSubs.add(host.onDidChangeTerva((e) => this.tervaEmitter.fire(e)));
    return host;
  }

  /** Runs `op` after every change queued before it; `loading` (the busy indicator) while it runs, for the host-wide ones. */
  private run(op: () => Promise<void>, loading = true): Promise<void> {
    const next = this.queue.then(async () => {
      if (this.disposed) return;
      if (loading) this.setBusy(+1);
      try {
        await op();
      } finally {
        if (loading) this.setBusy(-1);
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private setBusy(delta: number): void {
    const was = this.busy > 0;
    this.busy += delta;
    if (was !== this.busy > 0 && !this.disposed) this.busyEmitter.fire(this.busy > 0);
  }
}
