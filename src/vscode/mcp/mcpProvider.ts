/**
 * zot tools in agent mode: one MCP server definition per zot extension
 * ("zot: <name>"), so each is listed on its own in MCP: List Servers, in the
 * tools picker and in per-server approval. Every definition is served by
 * one server that runs in this extension host (so interactive tools open
 * VS Code panels), on 127.0.0.1, with a random port and a random bearer
 * token carried in the definitions' headers, at /mcp/ext/<name>. A
 * definition's version changes with its extension's tools and commands, so
 * VS Code fetches them again. Only running extensions have one: VS Code
 * starts every server at a chat request (chat.mcp.autostart), so a server
 * that started its extension would undo the user's Stop at the next prompt.
 *
 * With `zot.mcp.servers` set to "one", a single definition ("Zot extensions",
 * at /mcp) serves every extension's tools instead: VS Code's "allow tools from
 * this server" then covers them all at once.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionView } from '../../host/index.js';
import type { HostSource } from '../../mcp/bridge.js';
import type { McpHttpServer } from '../../mcp/http.js';

export const MCP_PROVIDER_ID = 'zot.mcpServers';
/** Definitions are offered again at most this often while extensions start and register. */
const CHANGE_DEBOUNCE_MS = 300;

export interface McpProviderDeps {
  extensionPath: string;
  source: HostSource & { onDidChangeState(listener: () => void): vscode.Disposable };
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
  private readonly subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** What was offered last, to tell VS Code only of real changes. */
  private offered = '';

  constructor(private readonly d: McpProviderDeps) {
    const soon = (): void => this.refresh();
    this.subs.push(d.source.onDidChangeRegistry(soon), d.source.onDidChangeState(soon));
  }

  /** Offers the definitions again (soon, once) if they changed: extensions, their tools, or `zot.mcp.servers`. */
  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.key() !== this.offered) this.changed.fire();
    }, CHANGE_DEBOUNCE_MS);
  }

  /** The running server, started on first call. */
  ensureServer(): Promise<McpHttpServer> {
    if (!this.server) {
      const starting = (async () => {
        // A bundle of its own: activation never loads the MCP SDK.
        const mod = require(path.join(this.d.extensionPath, 'dist', 'mcp.js')) as typeof import('../../mcp/entry.js');
        return mod.startMcpHttpServer(this.d.source, this.d.log);
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

  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    const server = await this.ensureServer();
    const base = server.url.replace(/\/mcp$/, '');
    this.offered = this.key();
    const served = this.served();
    if (this.d.servers() === 'one') {
      if (!served.length) return [];
      const version = `${this.d.version()}+${createHash('sha256').update(served.map((rt) => this.versionOf(rt)).join(' ')).digest('hex').slice(0, 12)}`;
      return [new vscode.McpHttpServerDefinition('Zot extensions', vscode.Uri.parse(`${base}/mcp`), { Authorization: `Bearer ${server.token}` }, version)];
    }
    return served.map((rt) => new vscode.McpHttpServerDefinition(
      `zot: ${rt.name}`,
      vscode.Uri.parse(`${base}/mcp/ext/${encodeURIComponent(rt.name)}`),
      { Authorization: `Bearer ${server.token}` },
      this.versionOf(rt),
    ));
  }

  async resolveMcpServerDefinition(def: vscode.McpHttpServerDefinition): Promise<vscode.McpHttpServerDefinition> {
    // A client that lists right after connecting sees every tool: the extensions have loaded first.
    await this.d.source.host.whenLoaded();
    return def;
  }

  /** Extensions with a server: those running with an active tool or command. */
  private served(): ExtensionView[] {
    const host = this.d.source.host;
    const registered = new Set([...host.tools(), ...host.commands()].filter((e) => e.active).map((e) => e.extension));
    return host.extensions.filter((rt) => rt.connected && registered.has(rt.name));
  }

  /** Changes with the extension's tools and commands (and the product's version): VS Code then lists them again. */
  private versionOf(rt: ExtensionView): string {
    const host = this.d.source.host;
    const tools = host.tools().filter((t) => t.extension === rt.name && t.active).map((t) => [t.name, t.description, t.interactive, t.schema]);
    const commands = host.commands().filter((c) => c.extension === rt.name && c.active).map((c) => [c.name, c.description]);
    const hash = createHash('sha256').update(JSON.stringify([tools, commands])).digest('hex').slice(0, 12);
    return `${this.d.version()}+${hash}`;
  }

  private key(): string {
    return JSON.stringify([this.d.servers(), this.served().map((rt) => [rt.name, this.versionOf(rt)])]);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
    void this.server?.then((s) => s.close()).catch(() => undefined);
  }
}
