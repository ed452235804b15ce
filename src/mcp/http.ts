/**
 * The MCP bridge over Streamable HTTP, for VS Code's agent mode: bound to
 * 127.0.0.1 on a random port, and every request must carry a random bearer
 * token that only the MCP server definition knows. One MCP session per
 * client; each gets its own bridge server over the shared host.
 *
 * Bundled on its own (dist/mcp.js) and loaded only when VS Code first asks
 * for the server, so activation does not pay for the MCP SDK.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ZotHost } from '../host/index.js';
import { createBridgeServer, hostSource, type HostSource } from './bridge.js';

export interface McpHttpServer {
  /** The endpoint, e.g. http://127.0.0.1:43121/mcp */
  readonly url: string;
  /** Send as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** Open MCP sessions. */
  readonly sessions: number;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function startMcpHttpServer(host: ZotHost | HostSource, log: (line: string) => void = () => undefined): Promise<McpHttpServer> {
  const source = hostSource(host);
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; close(): Promise<void> }>();

  const authorized = (req: http.IncomingMessage): boolean => {
    const got = Buffer.from(req.headers.authorization ?? '');
    return got.length === expected.length && timingSafeEqual(got, expected);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`MCP request failed: ${(err as Error).message}`);
      if (!res.headersSent) jsonError(res, 500, -32603, 'internal error');
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!authorized(req)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="zot-extensions"');
      return jsonError(res, 401, -32001, 'unauthorized: a valid bearer token is required');
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== '/mcp') return jsonError(res, 404, -32601, `no MCP endpoint at ${path}; use /mcp`);

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return jsonError(res, 404, -32001, 'unknown or expired MCP session');
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return jsonError(res, 400, -32000, 'an MCP session starts with an initialize request (POST)');
    const body = await readJson(req);
    if (body === undefined) return jsonError(res, 400, -32700, 'the request body is not JSON');
    if (!isInitializeRequest(body)) return jsonError(res, 400, -32000, 'no session: send initialize first');

    const bridge = createBridgeServer(source);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, close: () => bridge.server.close() });
        log(`MCP session ${id} opened`);
      },
    });
    transport.onclose = () => {
      bridge.dispose();
      if (transport.sessionId && sessions.delete(transport.sessionId)) log(`MCP session ${transport.sessionId} closed`);
    };
    await bridge.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/mcp`;
  log(`MCP server listening on ${url}`);

  return {
    url,
    token,
    get sessions() {
      return sessions.size;
    },
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.close().catch(() => undefined)));
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function jsonError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
