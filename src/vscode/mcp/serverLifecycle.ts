/**
 * Start, Stop and Restart of a zot extension's server in VS Code's own MCP
 * UI (MCP: List Servers, the MCP servers view) act on the extension.
 *
 * VS Code tells a server provider only two things: it resolves a definition
 * each time it starts that server, and it ends the server's MCP session with
 * an HTTP DELETE each time it stops it. A restart is a stop and a start at
 * once. So each start gets a launch id of its own (a header VS Code then sends
 * with every request of that launch), and the end of a launch means:
 *
 *   - VS Code following a change of ours: the extension's definition was
 *     dropped, added again or given a new version since the launch began (its
 *     tools changed, it was stopped in the Zot view, it crashed and is
 *     restarting). VS Code stops every server whose definition changed, and
 *     starts it again only when next needed. Nothing happens to the extension;
 *   - a start of the same server within RESTART_WINDOW_MS, or one that came
 *     before the end did (VS Code does not wait for its DELETE to be answered
 *     before it starts the server again): a restart. At the version the
 *     ended launch had, it is Restart, and the extension restarts; at another,
 *     VS Code is taking up the extension's new tools, and nothing happens;
 *   - no start within it: Stop, and the extension stops. Its definition stays
 *     listed as it was (same version, so VS Code keeps its tools and does not
 *     start it at the next chat request), and a later start of it (Start, or
 *     the agent calling one of its tools) starts the extension again.
 *
 * So every doubt ends in leaving the extension as it is, never in stopping
 * it. Every start goes through the host, and so through the consent gate: a
 * workspace extension that is not allowed stays held, and VS Code is told the
 * server cannot start. A Stop in the Zot view still drops the definition, as
 * before; only a stop made in VS Code's MCP UI keeps it listed.
 */
import { randomUUID } from 'node:crypto';
import { isInTransition, isServing, stateOf, type ExtensionView } from '../../host/index.js';

/** A stop and the start that makes it a restart come closer together than this. */
export const RESTART_WINDOW_MS = 1_500;
/** How long a start waits for an extension that is starting, stopping or restarting to settle. */
export const SETTLE_MS = 15_000;
/** Launches remembered at most; VS Code holds one per running server. */
const MAX_LAUNCHES = 256;
/** Serving calls (isServing); false for one that is gone. */
const serving = (rt: ExtensionView | undefined): boolean => rt !== undefined && isServing(rt.status);

export interface LifecycleDeps {
  startExtension(name: string): Promise<void>;
  stopExtension(name: string): Promise<void>;
  restartExtension(name: string): Promise<void>;
  /** Resolves once the starts, stops and restarts asked for so far are done (one in the Zot view, say). */
  settled(): Promise<void>;
  extension(name: string): ExtensionView | undefined;
  /** The version its definition has now; undefined when it has none (dropped). */
  versionNow(name: string): string | undefined;
  /** The definitions changed (one stopped here stays listed). */
  changed(): void;
  log(line: string): void;
}

interface Launch {
  name: string;
  version: string;
  /** The generation of its extension's definition when it began. */
  generation: number;
}

export class ServerLifecycle {
  private readonly launches = new Map<string, Launch>();
  /** The newest launch of each extension's server. */
  private readonly latest = new Map<string, string>();
  /** Counts the changes of each extension's definition as VS Code was told of them. */
  private readonly generation = new Map<string, number>();
  /** Ended launches that a start may still make a restart, by extension. */
  private readonly ending = new Map<string, { version: string; timer: NodeJS.Timeout }>();
  /** Extensions stopped from VS Code's MCP UI, with the version their definition keeps. */
  private readonly stoppedHere = new Map<string, string>();
  /** Of those, the ones whose stop is still under way. */
  private readonly stopping = new Set<string>();

  constructor(private readonly d: LifecycleDeps) {}

  /** The extensions stopped from VS Code's MCP UI, and the version each definition keeps. */
  get stopped(): ReadonlyMap<string, string> {
    return this.stoppedHere;
  }

  /** VS Code was told of a change of this extension's definition (added, dropped, a new version). */
  touched(name: string): void {
    this.generation.set(name, this.gen(name) + 1);
  }

  /**
   * VS Code starts the server of `name` at `version`: the launch id its
   * requests will carry, or undefined when the extension cannot run (held by
   * the consent gate, failed), so VS Code does not start the server.
   */
  async start(name: string, version: string): Promise<string | undefined> {
    const ended = this.ending.get(name);
    if (ended) {
      clearTimeout(ended.timer);
      this.ending.delete(name);
      if (ended.version === version) await this.restart(name);
    } else if (this.stoppedHere.has(name)) {
      if (this.stopping.has(name)) await this.settled(name);
      this.d.log(`MCP: VS Code started the server of "${name}": starting the extension`);
      await this.d.startExtension(name);
    }
    // Not in the middle of a restart asked for elsewhere, which passes through "stopped".
    await this.d.settled();
    const rt = await this.settled(name);
    if (!serving(rt)) {
      this.d.log(`MCP: the server of "${name}" cannot start: the extension is ${rt ? stateOf(rt) : 'gone'}${rt?.error ? ` (${rt.error})` : ''}`);
      return undefined;
    }
    if (this.stoppedHere.delete(name)) this.d.changed();
    const id = randomUUID();
    if (this.launches.size >= MAX_LAUNCHES) this.launches.delete(this.launches.keys().next().value!);
    this.launches.set(id, { name, version, generation: this.gen(name) });
    this.latest.set(name, id);
    return id;
  }

  /** VS Code ended a launch's session (`scope`: the endpoint's extension). */
  ended(scope: string | undefined, launchId: string | undefined): void {
    const launch = launchId === undefined ? undefined : this.launches.get(launchId);
    if (!launch || launch.name !== scope) return;
    this.launches.delete(launchId!);
    const { name, version } = launch;
    // VS Code following a change of ours, or an extension stopped some other way.
    if (launch.generation !== this.gen(name) || this.d.versionNow(name) !== version) {
      this.d.log(`MCP: VS Code ended a session of the server of "${name}" after its definition changed (from ${version}, change ${launch.generation}, to ${this.d.versionNow(name) ?? 'none'}, change ${this.gen(name)}); the extension is left as it is`);
      return;
    }
    if (!serving(this.d.extension(name))) return;
    const newer = this.launches.get(this.latest.get(name) ?? '');
    if (newer && this.latest.get(name) !== launchId) {
      // Started again before this end arrived: a restart.
      if (newer.version === version) void this.restart(name);
      return;
    }
    const timer = setTimeout(() => this.stop(name), RESTART_WINDOW_MS);
    timer.unref();
    const previous = this.ending.get(name);
    if (previous) clearTimeout(previous.timer);
    this.ending.set(name, { version, timer });
  }

  /** Forgets a stop made here once the extension runs again some other way (the Zot view, a reload) or is gone. */
  sync(): void {
    for (const name of [...this.stoppedHere.keys()]) {
      if (this.stopping.has(name)) continue;
      const rt = this.d.extension(name);
      if (!rt || isServing(rt.status)) this.stoppedHere.delete(name);
    }
  }

  dispose(): void {
    for (const e of this.ending.values()) clearTimeout(e.timer);
    this.ending.clear();
  }

  private gen(name: string): number {
    return this.generation.get(name) ?? 0;
  }

  /** The extension once it is not starting, stopping or restarting (a restart after a crash; or SETTLE_MS went by). */
  private async settled(name: string): Promise<ExtensionView | undefined> {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const rt = this.d.extension(name);
      if (!rt || isServing(rt.status) || !isInTransition(rt.status) || Date.now() >= deadline) return rt;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** VS Code restarted the server: the extension restarts (through the gate, as every start). */
  private restart(name: string): Promise<void> {
    this.d.log(`MCP: VS Code restarted the server of "${name}": restarting the extension`);
    return this.d.restartExtension(name).catch((err: unknown) => this.d.log(`MCP: restarting "${name}" failed: ${(err as Error).message}`));
  }

  private stop(name: string): void {
    this.ending.delete(name);
    // Its definition keeps the version VS Code has now.
    const version = this.d.versionNow(name);
    if (version === undefined || !serving(this.d.extension(name))) return;
    this.d.log(`MCP: VS Code stopped the server of "${name}": stopping the extension`);
    this.stoppedHere.set(name, version);
    this.stopping.add(name);
    void this.d.stopExtension(name)
      .catch((err: unknown) => this.d.log(`MCP: stopping "${name}" failed: ${(err as Error).message}`))
      .finally(() => {
        this.stopping.delete(name);
        this.d.changed();
      });
  }
}
