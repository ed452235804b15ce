/**
 * The 2025 sessions of the HTTP listener: a session opens with `initialize`
 * (once the extensions are loaded, so its instructions carry their model
 * context), gets its own bridge server (bridge.ts) over the shared host, and
 * every later request names it in `Mcp-Session-Id`. The table of open
 * sessions bounds their number and idle time (sessions.ts).
 */
import { randomUUID } from 'node:crypto';
import type * as http from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Instructions } from '../shared/instructions.js';
import type { HostSource } from '../shared/source.js';
import { jsonError, localNames } from '../shared/http.js';
import { LAUNCH_HEADER } from '../launch.js';
import { createBridgeServer } from './bridge.js';
import { SessionTable } from './sessions.js';

export interface SessionOptions {
  idleMs: number;
  max: number;
  /** A client ended its session itself (an HTTP DELETE): the endpoint's extension and the request's LAUNCH_HEADER. */
  onClientEnded?: (scope: string | undefined, launch: string | undefined) => void;
}

export class LegacySessions {
  readonly table: SessionTable;

  constructor(
    private readonly source: HostSource,
    private readonly log: (line: string) => void,
    private readonly instructions: Instructions,
    private readonly options: SessionOptions,
  ) {
    this.table = new SessionTable(options.idleMs, options.max, log);
  }

  /** A request of the session `id` (any method), served by it; 404 when it is unknown or expired. */
  async serve(req: http.IncomingMessage, res: http.ServerResponse, body: unknown, id: string, scope: string | undefined): Promise<void> {
    const session = this.table.use(id, req.method, res);
    if (!session) return jsonError(res, 404, -32001, 'unknown or expired MCP session');
    await session.transport.handleRequest(req, res, body);
    if (req.method === 'DELETE' && !this.table.has(id)) {
      const launch = req.headers[LAUNCH_HEADER.toLowerCase()];
      this.options.onClientEnded?.(scope, typeof launch === 'string' ? launch : undefined);
    }
  }

  /** A request without a session: an `initialize` (POST) opens one for the endpoint of `scope`; anything else is refused. */
  async open(req: http.IncomingMessage, res: http.ServerResponse, body: unknown, scope: string | undefined, port: number): Promise<void> {
    if (req.method !== 'POST') return jsonError(res, 400, -32000, 'an MCP session starts with an initialize request (POST)');
    if (!isInitializeRequest(body)) return jsonError(res, 400, -32000, 'no session: send initialize first');
    await this.source.host.whenLoaded();
    if (!this.table.makeRoom()) return jsonError(res, 503, -32000, `too many open MCP sessions (${this.table.max}, each with a call in flight)`);

    const bridge = createBridgeServer(this.source, this.log, scope, this.instructions);
    const names = localNames(port);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // The same rule as the listener's foreignRequest, kept in the SDK's own check as well.
      enableDnsRebindingProtection: true,
      allowedHosts: names.hosts,
      allowedOrigins: names.origins,
      onsessioninitialized: (id): void => this.table.add(id, { transport, close: () => bridge.server.close() }),
    });
    transport.onclose = () => {
      bridge.dispose();
      if (transport.sessionId) this.table.remove(transport.sessionId);
    };
    await bridge.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }
}
