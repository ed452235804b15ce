/**
 * The 2026-07-28 endpoints of the HTTP listener: for `/mcp` and for each
 * extension's `/mcp/ext/<name>`, a handler of SDK v2's (stateless: a fresh
 * server per request, modern.ts), made when first asked for and told when
 * what it lists changes. Bounded in number: one more than
 * MAX_MODERN_ENDPOINTS closes the oldest.
 */
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Instructions } from '../shared/instructions.js';
import { onListsChanged, type HostSource } from '../shared/source.js';
import { MAX_BODY_BYTES } from '../shared/http.js';
import { modernServers, type ModernOptions, type ModernServers } from './modern.js';

/** Most endpoints (the server of every extension, and /mcp) with a 2026 handler at once; one more closes the oldest. */
const MAX_MODERN_ENDPOINTS = 256;

/** An endpoint's handler, its servers, and its subscription to list changes. */
interface Endpoint {
  handler: McpHttpHandler;
  servers: ModernServers;
  sub: { dispose(): void };
}

export class ModernEndpoints {
  /** By scope ('' for /mcp), oldest first. */
  private readonly endpoints = new Map<string, Endpoint>();

  constructor(
    private readonly source: HostSource,
    private readonly log: (line: string) => void,
    private readonly instructions: Instructions,
    private readonly options: ModernOptions = {},
  ) {}

  /** The handler of the endpoint of `scope` (an extension's name; undefined: /mcp). */
  handler(scope: string | undefined): McpHttpHandler {
    const key = scope ?? '';
    const known = this.endpoints.get(key);
    if (known) return known.handler;
    if (this.endpoints.size >= MAX_MODERN_ENDPOINTS) {
      const [oldest, entry] = this.endpoints.entries().next().value!;
      this.endpoints.delete(oldest);
      close(entry);
    }
    const servers = modernServers(this.source, this.log, scope, { ...this.options, instructions: this.instructions });
    // Each server is made once the extensions are loaded, so its instructions carry their model context.
    const handler = createMcpHandler(async () => {
      await this.source.host.whenLoaded();
      return servers.create();
    }, { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => this.log(`MCP (2026-07-28): ${err.message}`) });
    const sub = onListsChanged(this.source, scope, () => handler.notify.toolsChanged(), () => handler.notify.promptsChanged());
    this.endpoints.set(key, { handler, servers, sub });
    return handler;
  }

  dispose(): void {
    for (const entry of this.endpoints.values()) close(entry);
    this.endpoints.clear();
  }
}

function close(entry: Endpoint): void {
  entry.sub.dispose();
  entry.servers.dispose();
  void entry.handler.close().catch(() => undefined);
}
