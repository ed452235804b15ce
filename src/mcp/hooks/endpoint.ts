/**
 * Agent hooks answered by the editor's MCP listener (`POST /hooks/<Event>`,
 * see src/host/hooks): `zot-host hook` reaches the editor's running
 * extensions (allowed by the user, as always) instead of starting its own.
 * Answered once given a hook token, a second secret that only the user's
 * windows folder holds and that requests prove rather than send
 * (src/host/hooks/windows.ts): a request proves it over the event's name and
 * the body, is answered once, and every answer proves it back.
 */
import type * as http from 'node:http';
import { AUTH_HEADER, checkRequest, FAIL_CLOSED_QUERY, hookInputOf, isHookEvent, NonceLog, PROOF_HEADER, readRequestAuth, runHookOn, signAnswer } from '../../host/index.js';
import type { HostSource } from '../shared/source.js';
import { servedTools } from '../shared/toolNames.js';
import { errorBody, jsonError, readRawBody } from '../shared/http.js';

/** The path of a hook request; its one group is the event's name as the path spells it (still percent-encoded). */
export const HOOK_PATH = /^\/hooks\/([^/]*)$/;

export class HookEndpoint {
  private token: string | undefined;
  /** Hook requests answered within the clock window: each is answered once. */
  private readonly nonces = new NonceLog();

  constructor(private readonly source: HostSource) {}

  /** Answers hooks for requests that prove `token`; undefined: none are answered. */
  setToken(token: string | undefined): void {
    this.token = token;
  }

  /**
   * One agent hook (`name`: the event as the path spells it, still
   * percent-encoded; `query`: the URL's query, part of what is proved): its
   * input in the body, its answer as the response (400: input it cannot
   * read, with why).
   */
  async handle(req: http.IncomingMessage, res: http.ServerResponse, name: string, query: string): Promise<void> {
    const auth = this.token ? readRequestAuth(req.headers[AUTH_HEADER]) : { ok: false as const, error: 'this window answers no hooks' };
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
    const token = this.token;
    if (!token || !checkRequest(token, `${name}${query}`, auth, read.raw)) return refuse('the request does not prove the hook token');
    if (!this.nonces.fresh(auth.nonce)) return refuse('this request was answered already');
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
    const host = this.source.host;
    await host.whenLoaded();
    const output = await runHookOn(host, input.input, (tool, extension) => servedTools(host, false, extension).served.has(tool), [], { failClosed: query === FAIL_CLOSED_QUERY });
    answer(200, output);
  }
}
