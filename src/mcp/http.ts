/**
 * The MCP bridge over Streamable HTTP, for VS Code's agent mode and, through
 * `zot-host mcp --http`, any MCP client: bound to 127.0.0.1, and every request
 * must carry a random bearer token that only the client was given. One MCP
 * session per client; each gets its own bridge server over the shared host.
 *
 * What every request goes through, in order (see guard.ts): a Host and Origin
 * that name this server (else 403: a web page reaching 127.0.0.1 through DNS
 * rebinding names its own), the token (else 401), the path, a body of at
 * most MAX_BODY_BYTES (else 413), whatever the request is.
 *
 * The same listener answers agent hooks (`POST /hooks/<Event>`, see
 * src/host/hooks) once given a hook token, a second secret that only the
 * user's windows folder holds and that requests prove rather than send:
 * `zot-host hook` then reaches the editor's running extensions (allowed by
 * the user, as always) instead of starting its own.
 *
 * Bundled on its own (dist/mcp.js) and loaded only when VS Code first asks
 * for the server, so activation does not pay for the MCP SDK.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import { AUTH_HEADER, checkRequest, FAIL_CLOSED_QUERY, hookInputOf, isHookEvent, NonceLog, PROOF_HEADER, readRequestAuth, runHookOn, signAnswer, type ZotHost } from '../host/index.js';
import { createBridgeServer, hostSource, type HostSource } from './bridge.js';
import { Instructions } from './instructions.js';
import { onListsChanged } from './source.js';
import { servedTools } from './toolNames.js';
import { MAX_BODY_BYTES, checkAuthorization, errorBody, foreignRequest, jsonError, localNames, readBody, readRawBody, requestPath } from './guard.js';
import { modernServers, type ModernOptions, type ModernServers } from './modern.js';
import { LAUNCH_HEADER } from './launch.js';
import { SessionTable } from './sessions.js';
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
/** An endpoint's 2026 handler, its servers, and its subscription to list changes. */
interface ModernEndpoint {
  handler: McpHttpHandler;
  servers: ModernServers;
  sub: { dispose(): void };
}

/** Most endpoints (the server of every extension, and /mcp) with a 2026 handler at once; one more closes the oldest. */
const MAX_MODERN_ENDPOINTS = 256;

export async function startMcpHttpServer(
  host: ZotHost | HostSource,
  log: (line: string) => void = () => undefined,
  options: McpHttpOptions = {},
): Promise<McpHttpServer> {
  const source = hostSource(host);
  const token = randomBytes(32).toString('base64url');
  const sessions = new SessionTable(options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS, options.maxSessions ?? DEFAULT_MAX_SESSIONS, log);
  /** What every session and server of this listener tells its clients, and when that went stale under them. */
  const instructions = new Instructions(source, log);
  let port = 0;
  let hookToken: string | undefined;
  /** Hook requests answered within the clock window: each is answered once. */
  const hookNonces = new NonceLog();
  /** The 2026 handler of each endpoint ('' for /mcp), made when first asked for. */
  const modern = new Map<string, ModernEndpoint>();
  const modernHandler = (scope: string | undefined): McpHttpHandler => {
    const key = scope ?? '';
    const known = modern.get(key);
    if (known) return known.handler;
    if (modern.size >= MAX_MODERN_ENDPOINTS) {
      const [oldest, entry] = modern.entries().next().value!;
      modern.delete(oldest);
      closeModern(entry);
    }
    const servers = modernServers(source, log, scope, { ...options.modern, instructions });
    // Each server is made once the extensions are loaded, so its instructions carry their model context.
    const handler = createMcpHandler(async () => {
      await source.host.whenLoaded();
      return servers.create();
    }, { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES, onerror: (err) => log(`MCP (2026-07-28): ${err.message}`) });
    const sub = onListsChanged(source, scope, () => handler.notify.toolsChanged(), () => handler.notify.promptsChanged());
    modern.set(key, { handler, servers, sub });
    return handler;
  };
  const closeModern = (entry: ModernEndpoint): void => {
    entry.sub.dispose();
    entry.servers.dispose();
    void entry.handler.close().catch(() => undefined);
  };

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
    // Nothing from the path is decoded before the request is authorized: a hook's name only in handleHook, once its proof is checked.
    const path = requestPath(req);
    const hookPath = path === undefined ? null : /^\/hooks\/([^/]*)$/.exec(path);
    if (hookPath) return handleHook(req, res, hookPath[1]!, new URL(req.url ?? '/', 'http://127.0.0.1').search);
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
    if (typeof sessionId === 'string') {
      const session = sessions.use(sessionId, req.method, res);
      if (!session) return jsonError(res, 404, -32001, 'unknown or expired MCP session');
      await session.transport.handleRequest(req, res, body);
      if (req.method === 'DELETE' && !sessions.has(sessionId)) {
        const launch = req.headers[LAUNCH_HEADER.toLowerCase()];
        options.onClientEnded?.(scope, typeof launch === 'string' ? launch : undefined);
      }
      return;
    }
    if (req.method === 'POST') {
      const request = webRequest(req, res, port);
      if (!(await isLegacyRequest(request, body))) return sendWebResponse(res, await modernHandler(scope).fetch(request, { parsedBody: body }));
    }
    if (req.method !== 'POST') return jsonError(res, 400, -32000, 'an MCP session starts with an initialize request (POST)');
    if (!isInitializeRequest(body)) return jsonError(res, 400, -32000, 'no session: send initialize first');
    // The session is made once the extensions are loaded, so its instructions carry their model context.
    await source.host.whenLoaded();
    if (!sessions.makeRoom()) return jsonError(res, 503, -32000, `too many open MCP sessions (${sessions.max}, each with a call in flight)`);

    const bridge = createBridgeServer(source, log, scope, instructions);
    const names = localNames(port);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // The same rule as foreignRequest, kept in the SDK's own check as well.
      enableDnsRebindingProtection: true,
      allowedHosts: names.hosts,
      allowedOrigins: names.origins,
      onsessioninitialized: (id): void => sessions.add(id, { transport, close: () => bridge.server.close() }),
    });
    transport.onclose = () => {
      bridge.dispose();
      if (transport.sessionId) sessions.remove(transport.sessionId);
    };
    await bridge.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /**
   * One agent hook (`name`: the event as the path spells it, still
   * percent-encoded): its input in the body, its answer as the response
   * (400: input it cannot read, with why). The request proves the hook token
   * over the name and the body (the token itself never crosses the wire:
   * src/host/hooks/windows.ts), once; every answer proves it back.
   */
  async function handleHook(req: http.IncomingMessage, res: http.ServerResponse, name: string, query: string): Promise<void> {
    const auth = hookToken ? readRequestAuth(req.headers[AUTH_HEADER]) : { ok: false as const, error: 'this window answers no hooks' };
    const refuse = (why: string): void => {
      res.setHeader('WWW-Authenticate', 'Zot-Hook realm="zot-extensions-hooks"');
      jsonError(res, 401, -32001, `unauthorized: ${why}`, true);
    };
    if (!auth.ok) return refuse(auth.error);
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return jsonError(res, 405, -32000, 'a hook is a POST of its input', true);
    }
    const read = await readRawBody(req);
    if (!read.ok) return jsonError(res, read.status, -32600, read.message, read.status === 413);
    const token = hookToken;
    if (!token || !checkRequest(token, `${name}${query}`, auth, read.raw)) return refuse('the request does not prove the hook token');
    if (!hookNonces.fresh(auth.nonce)) return refuse('this request was answered already');
    const answer = (status: number, value: unknown): void => {
      const body = JSON.stringify(value);
      res.writeHead(status, { 'Content-Type': 'application/json', [PROOF_HEADER]: signAnswer(token, auth.nonce, status, body) }).end(body);
    };
    const error = (status: number, code: number, message: string): void => answer(status, errorBody(code, message));
    let event: string;
    try {
      event = decodeURIComponent(name);
    } catch {
      return error(404, -32601, `no hook named ${JSON.stringify(name.slice(0, 100))}: the name in the path is not valid percent-encoding`);
    }
    if (!isHookEvent(event)) return error(404, -32601, `no hook named ${JSON.stringify(event.slice(0, 100))}`);
    let value: unknown;
    try {
      value = JSON.parse(read.raw.toString('utf8'));
    } catch (err) {
      return error(400, -32700, `the request body is not JSON (${(err as Error).message})`);
    }
    const input = hookInputOf(event, value);
    if (!input.ok) return error(400, -32602, input.error);
    const host = source.host;
    await host.whenLoaded();
    const output = await runHookOn(host, input.input, (tool, extension) => servedTools(host, false, extension).served.has(tool), [], { failClosed: query === FAIL_CLOSED_QUERY });
    answer(200, output);
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
  log(`MCP server listening on ${url} (bodies up to ${MAX_BODY_BYTES} bytes, ${sessions.max} sessions, idle ones closed after ${Math.round(sessions.idleMs / 1000)} s)`);

  return {
    url,
    token,
    get sessions() {
      return sessions.size;
    },
    setHookToken(t) {
      hookToken = t;
    },
    async close() {
      await sessions.closeAll();
      for (const entry of modern.values()) closeModern(entry);
      modern.clear();
      instructions.dispose();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
