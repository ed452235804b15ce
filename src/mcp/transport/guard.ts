/**
 * The checks an HTTP request to the MCP server passes before MCP sees it:
 * who it is addressed to (Host, Origin) and who sent it (the bearer token).
 * How much it carries (the body limit) is read by shared/http.ts, which
 * every endpoint shares.
 */
import { timingSafeEqual } from 'node:crypto';
import type * as http from 'node:http';
import { localNames } from '../shared/http.js';

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
