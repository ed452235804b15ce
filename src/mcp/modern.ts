/**
 * zot tools for clients on MCP's 2026-07-28 revision (stateless: no
 * `initialize`, no session; every request carries its protocol version,
 * client name and capabilities), served with SDK v2's per-request server. The
 * same tools, names, titles, annotations, prompts and results as the 2025
 * sessions of bridge.ts (both take them from tools.ts and prompts.ts); what
 * differs is how a call talks back:
 * - a note the extension sends while it handles a call is that call's
 *   progress when the client gave a progress token, else a log message on
 *   the call's response stream, at the log level the request asked for
 *   (none unless it asked: the revision made logging opt-in per request);
 *   a note outside any call has no stream to go to in this revision;
 * - an interactive tool's panel is a question the call answers with
 *   (`input_required`, rounds.ts), where a 2025 session is sent a request;
 * - a change of tools or prompts reaches the clients listening through
 *   `subscriptions/listen` (the serving entry's `notify`).
 */
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, Server, inputRequired, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import { preview } from '../protocol/index.js';
import type { PanelUI, ToolOutcome } from '../host/index.js';
import { getPrompt, listPrompts } from './prompts.js';
import { Instructions } from './instructions.js';
import { InteractiveCalls } from './rounds.js';
import { withSignal, type HostSource } from './source.js';
import { LOG_LEVEL, SERVER_CAPABILITIES, errorResult, listTools, nameReporter, resolveToolName, toCallToolResult, withdrawnResult } from './tools.js';

/** How long an interactive call waits for its client to answer a question before it is cancelled. */
export const ANSWER_WAIT_MS = 10 * 60_000;
/** Most interactive calls waiting for an answer at once; one more cancels the one waiting longest. */
export const MAX_WAITING_CALLS = 32;
/** The name of the one question a round asks (the form's field is inside it). */
const ANSWER = 'panel';

export interface ModernServers {
  /**
   * A fresh server for one request (HTTP) or one connection (stdio:
   * `connection` true). Its instructions carry the extensions' model context
   * as it is now; a connection's server counts as a client holding them
   * until it closes (instructions.ts).
   */
  create(connection?: boolean): Server;
  dispose(): void;
}

export interface ModernOptions {
  /** How long an interactive call waits for its answer; default ANSWER_WAIT_MS. */
  answerWaitMs?: number;
  /** Most calls waiting for an answer; default MAX_WAITING_CALLS. */
  maxWaitingCalls?: number;
  /** Shared with the other servers of one endpoint or process; without it, these servers have their own. */
  instructions?: Instructions;
}

/** Servers of the 2026 revision over `source`; `scope`: only that extension's tools and prompts. */
export function modernServers(source: HostSource, log: (line: string) => void, scope?: string, options: ModernOptions = {}): ModernServers {
  const reportNames = nameReporter(log);
  const ownInstructions = options.instructions ? undefined : new Instructions(source, log);
  const instructions = options.instructions ?? ownInstructions!;
  const waitMs = options.answerWaitMs ?? ANSWER_WAIT_MS;
  const calls = new InteractiveCalls(waitMs, options.maxWaitingCalls ?? MAX_WAITING_CALLS);
  const waitFor = waitMs >= 60_000 ? `${Math.round(waitMs / 60_000)} minutes` : waitMs >= 1000 ? `${Math.round(waitMs / 1000)} s` : `${waitMs} ms`;
  /** Where each extension's notes go now: the calls of it whose request is open. */
  const listening = new Map<string, Set<(level: keyof typeof LOG_LEVEL, message: string) => void>>();
  const notes = source.onNote((note) => {
    if (scope !== undefined && note.extension !== scope) return;
    for (const send of listening.get(note.extension) ?? []) send(note.level, note.message);
  });

  /** Runs `work` with the extension's notes going to this request: progress if asked for, else log messages. */
  async function hearing<T>(owner: string | undefined, ctx: ServerContext, work: () => Promise<T>): Promise<T> {
    if (owner === undefined) return work();
    const token = ctx.mcpReq._meta?.progressToken;
    let n = 0;
    const send = (level: keyof typeof LOG_LEVEL, message: string): void => {
      const sent = token !== undefined
        ? ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: ++n, message } })
        : ctx.mcpReq.log(LOG_LEVEL[level], message, owner);
      void sent.catch(() => undefined);
    };
    const set = listening.get(owner) ?? new Set();
    listening.set(owner, set.add(send));
    try {
      return await work();
    } finally {
      set.delete(send);
      if (set.size === 0) listening.delete(owner);
    }
  }

  async function callTool(params: { name: string; arguments?: Record<string, unknown> }, ctx: ServerContext, elicits: boolean): Promise<CallToolResult | InputRequiredResult> {
    const host = source.host;
    await host.whenLoaded();
    const args = params.arguments ?? {};
    const name = resolveToolName(host, params.name, elicits, scope);
    if (name === undefined) return errorResult(`no tool named "${preview(params.name, 80)}"`);
    const withdrawn = withdrawnResult(host, name);
    if (withdrawn) return withdrawn;
    const owner = host.findTool(name)?.extension;
    const toolId = `mcp-${String(ctx.mcpReq.id)}`;
    const run = (token: CancellationToken, panelUi?: PanelUI): Promise<ToolOutcome> => host.runToolCall(name, args, { token, toolId, ...(panelUi && { panelUi }) });
    // The editor's host shows panels itself; a host without a UI asks a client that can elicit.
    if (host.interactive || !elicits) return hearing(owner, ctx, async () => toCallToolResult(await withSignal(ctx.mcpReq.signal, (token) => run(token))));

    const key = `${scope ?? ''}\0${name}`;
    const state = ctx.mcpReq.requestState<unknown>();
    let call;
    if (state === undefined) call = calls.start(key, (panels, token) => run(token, panels));
    else {
      call = typeof state === 'string' ? calls.resume(state, key, ctx.mcpReq.inputResponses, ANSWER) : undefined;
      if (!call) return errorResult(`this call of "${preview(params.name, 80)}" is no longer waiting for an answer (it was answered, cancelled, or not answered within ${waitFor}); call the tool again`);
    }
    const round = await hearing(owner, ctx, () => calls.round(call, ctx.mcpReq.signal));
    if ('outcome' in round) return toCallToolResult(round.outcome);
    const { form } = round.question;
    return inputRequired({ inputRequests: { [ANSWER]: inputRequired.elicit({ message: form.message, requestedSchema: form.schema }) }, requestState: round.state });
  }

  return {
    create(connection = false) {
      const identity = instructions.identity(scope);
      const server = new Server(identity.info, { capabilities: SERVER_CAPABILITIES, instructions: identity.instructions });
      if (connection) {
        const told = identity.told();
        const closed = server.onclose;
        server.onclose = () => {
          told.dispose();
          closed?.();
        };
      }
      // What the client can do is said by each request of this revision.
      const elicits = (ctx: ServerContext): boolean => {
        const declared = (ctx.mcpReq.envelope as Record<string, { elicitation?: unknown } | undefined> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
        return (declared ?? server.getClientCapabilities())?.elicitation !== undefined;
      };
      server.setRequestHandler('tools/list', async (_request, ctx) => {
        await source.host.whenLoaded();
        return { tools: listTools(source.host, reportNames, elicits(ctx), scope) };
      });
      server.setRequestHandler('tools/call', (request, ctx) => callTool(request.params, ctx, elicits(ctx)));
      server.setRequestHandler('prompts/list', async () => {
        await source.host.whenLoaded();
        return { prompts: listPrompts(source.host, scope) };
      });
      server.setRequestHandler('prompts/get', (request, ctx) =>
        getPrompt(source, request.params.name, request.params.arguments?.args ?? '', ctx.mcpReq.signal, scope, (code, message) => new ProtocolError(code, message)),
      );
      return server;
    },
    dispose() {
      notes.dispose();
      calls.dispose();
      ownInstructions?.dispose();
    },
  };
}
