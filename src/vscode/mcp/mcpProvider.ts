/**
 * zot tools in agent mode: one MCP server definition per zot extension
 * ("zot: <name>"), so each is listed on its own in MCP: List Servers, in the
 * tools picker and in per-server approval. Every definition is served by
 * one server that runs in this extension host (so interactive tools open
 * VS Code panels), on 127.0.0.1, with a random port and a random bearer
 * token carried in the definitions' headers, at /mcp/ext/<name>. A
 * definition's version changes with its extension's tools and commands, so
 * VS Code fetches them again. Running extensions have one, and so do those
 * stopped from VS Code's MCP UI, whose Start, Stop and Restart act on the
 * extension (serverLifecycle.ts). One stopped in the Zot view has none: VS
 * Code starts a server it has not listed yet at the next chat request
 * (chat.mcp.autostart), which would undo that Stop.
 *
 * With `zot.mcp.servers` set to "one", a single definition ("Zot extensions",
 * at /mcp) serves every extension's tools instead: VS Code's "allow tools from
 * this server" then covers them all at once.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisposableStore, isInTransition, isServing, type ExtensionView } from '../../host/index.js';
import { LAUNCH_HEADER, listKeys, type HostSource, type McpBundle, type McpHttpServer } from '../../mcp/index.js';
import { ServerLifecycle } from './serverLifecycle.js';

export const MCP_PROVIDER_ID = 'zot.mcpServers';
/** Definitions are offered again at most this often while extensions start and register. */
const CHANGE_DEBOUNCE_MS = 300;

export interface McpProviderDeps {
  extensionPath: string;
  source: HostSource & {
    onDidChangeState(listener: () => void): vscode.Disposable;
    startExtension(name: string): Promise<void>;
    stopExtension(name: string): Promise<void>;
    restartExtension(name: string): Promise<void>;
    settled(): Promise<void>;
  };
  version: () => string;
  /** A server per extension, or one for all. */
  servers: () => 'perExtension' | 'one';
  log: (line: string) => void;
  /** Told the bearer token once the server runs: a value nothing the host writes may show. */
  keepSecret?: (token: string) => void;
}

export class ZotMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private server: Promise<McpHttpServer> | undefined;
  /** The running server's bearer token, for the protocol trace to keep out. */
  token: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly subs = new DisposableStore();
  private timer: NodeJS.Timeout | undefined;
  /** What was offered last, to tell VS Code only of real changes. */
  private offered = '';
  /** Start, Stop and Restart from VS Code's MCP UI. */
  readonly lifecycle: ServerLifecycle;
  /** The definitions VS Code was given last, extension by extension, with their versions. */
  private told = new Map<string, string>();
  private disposed = false;

  constructor(private readonly d: McpProviderDeps) {
    this.lifecycle = new ServerLifecycle({
      startExtension: (name) => d.source.startExtension(name),
      stopExtension: (name) => d.source.stopExtension(name),
      restartExtension: (name) => d.source.restartExtension(name),
      settled: () => d.source.settled(),
      extension: (name) => d.source.host.get(name),
      versionNow: (name) => this.versionNow(name),
      changed: () => this.refresh(),
      log: d.log,
    });
    const soon = (): void => this.refresh();
    this.subs.add(d.source.onDidChangeRegistry(soon));
    this.subs.add(d.source.onDidChangeState(soon));
  }

  /** Offers the definitions again (soon, once) if they changed: extensions, their tools, or `zot.mcp.servers`. */
  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      // After the starts, stops and restarts under way (a restart in the Zot view passes through "stopped").
      void this.d.source.settled().then(() => {
        this.timer = undefined;
        if (this.disposed) return;
        this.lifecycle.sync();
        if (this.key() !== this.offered) this.changed.fire();
      });
    }, CHANGE_DEBOUNCE_MS);
  }

  /** The running server, started on first call. */
  ensureServer(): Promise<McpHttpServer> {
    if (!this.server) {
      const starting = (async () => {
        // A bundle of its own: activation never loads the MCP SDK.
        const mod = require(path.join(this.d.extensionPath, 'dist', 'mcp.js')) as McpBundle;
        return mod.startMcpHttpServer(this.d.source, this.d.log, { onClientEnded: (scope, launch) => this.lifecycle.ended(scope, launch) });
      })();
      // Reported once; the next request tries again.
      starting.catch((err: unknown) => {
        this.d.log(`could not start the MCP server: ${(err as Error).message}`);
        if (this.server === starting) this.server = undefined;
      });
      this.server = starting;
      void starting.then((s) => {
        this.token = s.token;
        this.d.keepSecret?.(s.token);
      }, () => undefined);
    }
    return this.server;
  }

  /** VS Code asks for the definitions: what it is given is what it was told, for the refreshes and the lifecycle. */
  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    const server = await this.ensureServer();
    this.offered = this.key();
    if (this.d.servers() === 'one') return this.definitions(server);
    const now = new Map(this.perExtension());
    // What VS Code is told changed, extension by extension: a launch of an older definition may be ended by VS Code.
    for (const name of new Set([...now.keys(), ...this.told.keys()])) if (now.get(name) !== this.told.get(name)) this.lifecycle.touched(name);
    this.told = now;
    return this.definitions(server, now);
  }

  /** The definitions as they are now, with nothing recorded as told (the test API reads them so). */
  async peekDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    return this.definitions(await this.ensureServer());
  }

  private definitions(server: McpHttpServer, entries = new Map(this.perExtension())): vscode.McpHttpServerDefinition[] {
    const base = server.url.replace(/\/mcp$/, '');
    if (this.d.servers() === 'one') {
      const served = this.served();
      if (!served.length) return [];
      const version = `${this.d.version()}+${createHash('sha256').update(served.map((rt) => this.versionOf(rt)).join(' ')).digest('hex').slice(0, 12)}`;
      return [new vscode.McpHttpServerDefinition('Zot extensions', vscode.Uri.parse(`${base}/mcp`), { Authorization: `Bearer ${server.token}` }, version)];
    }
    return [...entries].map(([name, version]) => new vscode.McpHttpServerDefinition(
      `zot: ${name}`,
      vscode.Uri.parse(`${base}/mcp/ext/${encodeURIComponent(name)}`),
      { Authorization: `Bearer ${server.token}` },
      version,
    ));
  }

  async resolveMcpServerDefinition(def: vscode.McpHttpServerDefinition): Promise<vscode.McpHttpServerDefinition | undefined> {
    // A client that lists right after connecting sees every tool: the extensions have loaded first.
    await this.d.source.host.whenLoaded();
    const name = /^\/mcp\/ext\/([^/]+)$/.exec(def.uri.path)?.[1];
    if (name === undefined || this.d.servers() === 'one') return def;
    const launch = await this.lifecycle.start(decodeURIComponent(name), def.version ?? '');
    if (launch === undefined) return undefined;
    return new vscode.McpHttpServerDefinition(def.label, def.uri, { ...def.headers, [LAUNCH_HEADER]: launch }, def.version);
  }

  /** What resolving `def` waits for, without starting a launch (the test API's). */
  async peekResolve(def: vscode.McpHttpServerDefinition): Promise<vscode.McpHttpServerDefinition> {
    await this.d.source.host.whenLoaded();
    return def;
  }

  /**
   * A definition's name and version for each extension with a server: those
   * serving, then those stopped from VS Code's MCP UI. One that is starting,
   * stopping or restarting keeps what VS Code was told last, so a restart
   * (which passes through no tools and some of them) changes its definition
   * once, when it is done: VS Code stops a server at each change.
   */
  private perExtension(): [string, string][] {
    const host = this.d.source.host;
    const serving = new Set(this.served());
    const entries: [string, string][] = [];
    for (const rt of host.extensions) {
      const told = this.told.get(rt.name);
      if (isInTransition(rt.status)) {
        if (told !== undefined) entries.push([rt.name, told]);
      } else if (serving.has(rt)) entries.push([rt.name, this.versionOf(rt)]);
    }
    for (const [name, version] of this.lifecycle.stopped) if (!entries.some(([n]) => n === name)) entries.push([name, version]);
    return entries;
  }

  private versionNow(name: string): string | undefined {
    return this.perExtension().find(([n]) => n === name)?.[1];
  }

  /** Extensions with a server: those running with an active tool or command. */
  private served(): ExtensionView[] {
    const host = this.d.source.host;
    const registered = new Set([...host.tools(), ...host.commands()].filter((e) => e.active).map((e) => e.extension));
    return host.extensions.filter((rt) => isServing(rt.status) && registered.has(rt.name));
  }

  /** Changes with the extension's tools and commands (and the product's version): VS Code then lists them again. */
  private versionOf(rt: ExtensionView): string {
    const lists = listKeys(this.d.source.host, rt.name);
    const hash = createHash('sha256').update(lists.tools).update(lists.prompts).digest('hex').slice(0, 12);
    return `${this.d.version()}+${hash}`;
  }

  private key(): string {
    return JSON.stringify([this.d.servers(), this.perExtension()]);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.lifecycle.dispose();
    this.subs.dispose();
    this.changed.dispose();
    void this.server?.then((s) => s.close()).catch(() => undefined);
  }
}
