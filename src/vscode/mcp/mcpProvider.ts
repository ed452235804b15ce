/**
 * zot tools in agent mode: an MCP server definition whose server runs in this
 * extension host (so interactive tools open VS Code panels). The server is
 * started on first use, bound to 127.0.0.1 with a random port and a random
 * bearer token carried in the definition's headers.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostSource } from '../../mcp/bridge.js';
import type { McpHttpServer } from '../../mcp/http.js';

export const MCP_PROVIDER_ID = 'zot.mcpServers';

export class ZotMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private server: Promise<McpHttpServer> | undefined;
  /** The running server's bearer token, for the protocol trace to keep out. */
  token: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;

  constructor(
    private readonly extensionPath: string,
    private readonly source: HostSource,
    private readonly version: () => string,
    private readonly log: (line: string) => void,
    /** Told the bearer token once the server runs: a value nothing the host writes may show. */
    private readonly keepSecret: (token: string) => void = () => undefined,
  ) {}

  /** The running server, started on first call. */
  ensureServer(): Promise<McpHttpServer> {
    if (!this.server) {
      const starting = (async () => {
        // A bundle of its own: activation never loads the MCP SDK.
        const mod = require(path.join(this.extensionPath, 'dist', 'mcp.js')) as typeof import('../../mcp/http.js');
        return mod.startMcpHttpServer(this.source, this.log);
      })();
      // Reported once; the next request tries again.
      starting.catch((err: unknown) => {
        this.log(`could not start the MCP server: ${(err as Error).message}`);
        if (this.server === starting) this.server = undefined;
      });
      this.server = starting;
      void starting.then((s) => {
        this.token = s.token;
        this.keepSecret(s.token);
      }, () => undefined);
    }
    return this.server;
  }

  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    const server = await this.ensureServer();
    return [new vscode.McpHttpServerDefinition('Zot extensions', vscode.Uri.parse(server.url), { Authorization: `Bearer ${server.token}` }, this.version())];
  }

  async resolveMcpServerDefinition(def: vscode.McpHttpServerDefinition): Promise<vscode.McpHttpServerDefinition> {
    await this.source.host.whenLoaded();
    return def;
  }

  dispose(): void {
    this.changed.dispose();
    void this.server?.then((s) => s.close()).catch(() => undefined);
  }
}
