/**
 * The MCP bridge over Streamable HTTP, for VS Code's agent mode and, through
 * `zot-host mcp --http`, any MCP client: bound to 127.0.0.1, and every request
 * must carry a random bearer token that only the client was given. One MCP
 * session per client; each gets its own bridge server over the shared host.
 *
 * What every request goes through, in order (see shared/http.ts): a Host and Origin
 * that name this server (else 403: a web page reaching 127.0.0.1 through DNS
 * rebinding names its own), the token (else 401), the path, a body of at
 * most MAX_BODY_BYTES (else 413), whatever the request is.
 *
 * Then, by path and era: `/mcp` and `/mcp/ext/<extension>` to a 2025
 * session (era2025/endpoint.ts) or a 2026 endpoint (era2026/endpoints.ts),
 * and `/hooks/<Event>` to the agent hooks (hooks/endpoint.ts), which prove a
 * token of their own instead of the bearer token.
 *
 * Bundled on its own (dist/mcp.js) and loaded only when VS Code first asks
 * for the server, so activation does not pay for the MCP SDK.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import type { ZotHost } from '../../host/index.js';
import { LegacySessions } from '../era2025/endpoint.js';
import { ModernEndpoints } from '../era2026/endpoints.js';
import type { ModernOptions } from '../era2026/modern.js';
import { HOOK_PATH, HookEndpoint } from '../hooks/endpoint.js';
import { Instructions } from '../shared/instructions.js';
import { hostSource, type HostSource } from '../shared/source.js';
import { MAX_BODY_BYTES, checkAuthorization, foreignRequest, jsonError, readBody, requestPath } from '../shared/http.js';
import { sendWebResponse, webRequest } from './web.js';

export interface McpHttpServer {
  /** The endpoint, e.g. http://127.0.0.1:43121/mcp */
  readonly url: string;
  /** Send as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** Open MCP sessions. */
  readonly sessions: number;
  /** Answers agent hooks at `/hooks/<Event>` for requests that prove this token (hooks/windows.ts); undefined: none are answered. */
  setHookToken(token: string | undefined): void;
  close(): Promise<void>;
}

export interface McpHttpOptions {
  /** 0 (the default) for a free port. */
  port?: number;
  /** A session with no request for this long is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Most open sessions; a new one replaces the one longest without a message that has no call in flight. Default 32. */
  maxSessions?: number;
  /** 2026-07-28 clients: how long an interactive call waits for its answer, and how many may wait (modern.ts). */
  modern?: ModernOptions;
  /**
   * A client ended its session itself (an HTTP DELETE, as VS Code does when it
   * stops a server): the endpoint's extension (undefined for /mcp) and the
   * request's LAUNCH_HEADER (launch.ts), which the editor gives each server it starts.
   */
  onClientEnded?: (scope: string | undefined, launch: string | undefined) => void;
}

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 32;

export async function startMcpHttpServer(
  host: ZotHost | HostSource,
  log: (line: string) => void = () => undefined,
  options: McpHttpOptions = {},
): Promise<McpHttpServer> {
  const source = hostSource(host);
  const token = randomBytes(32).toString('base64url');
  /** What every session and server of this listener tells its clients, and when that went stale under them. */
  const instructions = new Instructions(source, log);
  const legacy = new LegacySessions(source, log, instructions, {
    idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    max: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    ...(options.onClientEnded && { onClientEnded: options.onClientEnded }),
  });
  const modern = new ModernEndpoints(source, log, instructions, options.modern);
  const hooks = new HookEndpoint(source);
  let port = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`MCP request failed: ${(err as Error).message}`);
      if (!res.headersSent) jsonError(res, 500, -32603, 'internal error');
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const foreign = foreignRequest(req, port);
    // Refused before its body is read: the connection closes rather than read a body nobody wants.
    if (foreign) return jsonError(res, 403, -32000, `forbidden: ${foreign}`, true);
    // Nothing from the path is decoded before the request is authorized: a hook's name only in the hook endpoint, once its proof is checked.
    const path = requestPath(req);
    const hookPath = path === undefined ? null : HOOK_PATH.exec(path);
    if (hookPath) return hooks.handle(req, res, hookPath[1]!, new URL(req.url ?? '/', 'http://127.0.0.1').search);
    if (!checkAuthorization(req, token)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="zot-extensions"');
      return jsonError(res, 401, -32001, 'unauthorized: a valid bearer token is required', true);
    }
    if (path === undefined) return jsonError(res, 400, -32600, 'the request target is not a URL path; use /mcp or /mcp/ext/<extension>', true);
    // /mcp serves every extension; /mcp/ext/<name> one (the editor's server definition per extension).
    const one = /^\/mcp\/ext\/([^/]+)$/.exec(path);
    if (path !== '/mcp' && !one) return jsonError(res, 404, -32601, `no MCP endpoint at ${path.slice(0, 200)}; use /mcp or /mcp/ext/<extension>`, true);
    let scope: string | undefined;
    try {
      scope = one ? decodeURIComponent(one[1]!) : undefined;
    } catch {
      return jsonError(res, 404, -32601, 'the extension name in the path is not valid percent-encoding', true);
    }

    // Every POST body is read here, so one limit holds for initialize and every later request.
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req);
      if (!read.ok) {
        return jsonError(res, read.status, read.status === 413 ? -32600 : -32700, read.message, read.status === 413);
      }
      body = read.value;
    }

    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') return legacy.serve(req, res, body, sessionId, scope);
    if (req.method === 'POST') {
      const request = webRequest(req, res, port);
      if (!(await isLegacyRequest(request, body))) return sendWebResponse(res, await modern.handler(scope).fetch(request, { parsedBody: body }));
    }
    return legacy.open(req, res, body, scope, port);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp`;
  log(`MCP server listening on ${url} (bodies up to ${MAX_BODY_BYTES} bytes, ${legacy.table.max} sessions, idle ones closed after ${Math.round(legacy.table.idleMs / 1000)} s)`);

  return {
    url,
    token,
    get sessions() {
      return legacy.table.size;
    },
    setHookToken(t) {
      hooks.setToken(t);
    },
    async close() {
      await legacy.table.closeAll();
      modern.dispose();
      instructions.dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
