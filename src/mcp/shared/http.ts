/**
 * What an HTTP request to the MCP server passes before MCP sees it, and what
 * every endpoint of the listener shares (the 2025 sessions, the 2026
 * endpoints, the hooks): who a request is addressed to (Host, Origin), who
 * sent it (the bearer token), how much it carries (the body limit and the
 * body readers), its path, and the JSON-RPC error answer.
 */
import { timingSafeEqual } from 'node:crypto';
import type * as http from 'node:http';
import { MAX_JSON_DEPTH, deeperThan } from '../../protocol/index.js';

/**
 * The most a request body may hold, at initialize as later: the MCP SDK's own
 * limit, and the 4 MiB zot accepts for one frame to an extension.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** JSON-RPC wraps tool arguments in three levels (a batch in four); the arguments get the frame limit. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH + 4;

/** The Host and Origin values that name this server. The server listens on 127.0.0.1 only. */
export function localNames(port: number): { hosts: string[]; origins: string[] } {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return { hosts, origins: hosts.map((h) => `http://${h}`) };
}

/**
 * Why a request is not addressed to this server, or undefined when it is.
 * A browser page that reaches 127.0.0.1 through DNS rebinding sends its own
 * name as Host and its own Origin; clients that are not browsers send no
 * Origin at all, which is accepted.
 */
export function foreignRequest(req: http.IncomingMessage, port: number): string | undefined {
  const { hosts, origins } = localNames(port);
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !hosts.includes(host)) return `the Host header ${describe(req.headers.host)} does not name this server (${hosts.join(' or ')})`;
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.includes(origin.toLowerCase())) return `requests from the origin ${describe(origin)} are not accepted`;
  return undefined;
}

function describe(value: string | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value.slice(0, 200));
}

/** Whether `Authorization` carries the token; the scheme name is case-insensitive (RFC 7235). */
export function checkAuthorization(req: http.IncomingMessage, token: string): boolean {
  const match = /^bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  if (!match) return false;
  const got = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export type BodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };
export type RawBodyResult = { ok: true; raw: Buffer } | { ok: false; status: 400 | 413; message: string };

/**
 * Reads a JSON body of at most MAX_BODY_BYTES (readRawBody, then parsed).
 */
export async function readBody(req: http.IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const read = await readRawBody(req, limit);
  if (!read.ok) return read;
  let value: unknown;
  try {
    value = JSON.parse(read.raw.toString('utf8'));
  } catch (err) {
    return { ok: false, status: 400, message: `the request body is not JSON (${(err as Error).message})` };
  }
  if (deeperThan(value, MAX_BODY_DEPTH)) return { ok: false, status: 400, message: `the request body is nested deeper than ${MAX_BODY_DEPTH} levels` };
  return { ok: true, value };
}

/**
 * Reads a body of at most `limit` bytes as it came. An over-long body is
 * answered as soon as it is known (by Content-Length, or once the limit is
 * passed), and the rest is read and thrown away so the client gets the
 * answer rather than a reset connection.
 */
export function readRawBody(req: http.IncomingMessage, limit = MAX_BODY_BYTES): Promise<RawBodyResult> {
  const tooLarge: RawBodyResult = { ok: false, status: 413, message: `the request body is larger than the ${limit}-byte limit` };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      req.resume();
      resolve(tooLarge);
    };
    const onEnd = (): void => resolve({ ok: true, raw: Buffer.concat(chunks) });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', (err) => resolve({ ok: false, status: 400, message: `reading the request body failed: ${err.message}` }));
  });
}

/**
 * The path a request is addressed to, its percent-encoding left as sent;
 * undefined when the request target is not one (`http://[`, say), which no
 * endpoint here answers.
 */
export function requestPath(req: http.IncomingMessage): string | undefined {
  try {
    return new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC error answer's body, to no request in particular. */
export const errorBody = (code: number, message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * A JSON-RPC error answer. Before the body was read (`unread`, or any body
 * still arriving: every refusal, whichever check made it), the connection
 * closes once the answer is written: Node would otherwise read and discard
 * whatever the client goes on sending, an endless body included.
 */
export function jsonError(res: http.ServerResponse, status: number, code: number, message: string, unread = false): void {
  if (unread || !res.req.complete) res.setHeader('Connection', 'close');
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(errorBody(code, message)));
}
