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
 *   to a client whose requests declare MCP Apps it is the same inline view a
 *   2025 session gets (apps.ts, through callPath.ts's runViewed), its
 *   questions only where no view asks for the panel in time. With no session
 *   in this revision, the views of one endpoint's calls are kept together,
 *   each found by its handle (random) or its tool and arguments;
 * - a change of tools or prompts reaches the clients listening through
 *   `subscriptions/listen` (the serving entry's `notify`).
 */
import { callGuardTool, guardTools, servesGuardTool } from '../hooks/guardTool.js';
import { GUARD_TOOL } from '../../host/hooks/index.js';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, Server, inputRequired, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { preview } from '../../protocol/index.js';
import { APP_TOOLS, AppViews, RESOURCE_NOT_FOUND, clientShowsApps, readView, viewResources } from '../shared/apps.js';
import { NoteRouter, prepareCall, runViewed, type NoteSender } from '../shared/callPath.js';
import { getPrompt, listPrompts } from '../shared/prompts.js';
import { Instructions } from '../shared/instructions.js';
import { InteractiveCalls } from './rounds.js';
import { withSignal, type HostSource } from '../shared/source.js';
import { LOG_LEVEL, SERVER_CAPABILITIES, activateFrom, errorResult, listTools, nameReporter, servedInteractive, structuredNote, toCallToolResult } from '../shared/tools.js';
import type { ToolOutcome } from '../../host/index.js';

/** zot's deferred tools one connection's results activated, and how its client is told. */
interface Activation { names: Set<string>; changed(): void }

/** How long an interactive call waits for its client to answer a question before it is cancelled. */
const ANSWER_WAIT_MS = 10 * 60_000;
/** Most interactive calls waiting for an answer at once; one more cancels the one waiting longest. */
const MAX_WAITING_CALLS = 32;
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
  // A note outside any call has no response stream to go to in this revision.
  const notes = new NoteRouter(source, scope);
  const views = new AppViews(log);

  /** Where this request sends its extension's notes: progress if it gave a token, else its log. */
  function sender(ctx: ServerContext, owner: string | undefined): NoteSender {
    const token = ctx.mcpReq._meta?.progressToken;
    let n = 0;
    return (level, message) => {
      const sent = token !== undefined
        ? ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: ++n, message } })
        : ctx.mcpReq.log(LOG_LEVEL[level], message, owner);
      void sent.catch(() => undefined);
    };
  }

  /**
   * A call's result, and what it says beyond it: a note on its structured
   * content, and the deferred tools it activates for this connection
   * (`activated`; a server made per request has none to keep).
   */
  function finished(name: string, outcome: ToolOutcome, activated: Activation | undefined): CallToolResult {
    const note = structuredNote(source.host.findTool(name), outcome);
    if (note) log(note);
    if (activated && activateFrom(source.host, outcome, activated.names)) activated.changed();
    return toCallToolResult(outcome);
  }

  async function callTool(params: { name: string; arguments?: Record<string, unknown> }, ctx: ServerContext, elicits: boolean, apps: () => boolean, activated?: Activation): Promise<CallToolResult | InputRequiredResult> {
    // A view's own tools, before any zot tool: an extension's tool of that name is not served to this client.
    if (APP_TOOLS.includes(params.name) && apps()) return views.serve(params.name, params.arguments ?? {}, ctx.mcpReq.signal);
    // Whether the client shows views is read only where it decides something: the names served to it (a
    // host with its own UI serves its interactive tools to every client) and an interactive call's panel.
    const call = await prepareCall(source, params, `mcp-${String(ctx.mcpReq.id)}`, elicits || (!source.host.interactive && apps()), scope);
    if ('refused' in call) return call.refused;
    const { name, owner } = call;
    const send = sender(ctx, owner);
    const viewing = call.interactive && apps() ? views : undefined;
    // The editor's host shows panels itself; a host without a UI asks a client that can elicit (where no view asks for the panel).
    if (source.host.interactive || !elicits) return notes.hear(owner, send, async () => finished(name, await withSignal(ctx.mcpReq.signal, (token) => runViewed(call, params, token, source, viewing)), activated));

    const key = `${scope ?? ''}\0${name}`;
    const state = ctx.mcpReq.requestState<unknown>();
    let waiting;
    if (state === undefined) waiting = calls.start(key, (panels, token) => runViewed(call, params, token, source, viewing, panels));
    else {
      waiting = typeof state === 'string' ? calls.resume(state, key, ctx.mcpReq.inputResponses, ANSWER) : undefined;
      if (!waiting) return errorResult(`this call of "${preview(params.name, 80)}" is no longer waiting for an answer (it was answered, cancelled, or not answered within ${waitFor}); call the tool again`);
    }
    const round = await notes.hear(owner, send, () => calls.round(waiting, ctx.mcpReq.signal));
    if ('outcome' in round) return finished(name, round.outcome, activated);
    const { form } = round.question;
    return inputRequired({ inputRequests: { [ANSWER]: inputRequired.elicit({ message: form.message, requestedSchema: form.schema }) }, requestState: round.state });
  }

  return {
    create(connection = false) {
      const identity = instructions.identity(scope);
      const server = new Server(identity.info, { capabilities: { ...SERVER_CAPABILITIES, resources: {} }, instructions: identity.instructions });
      if (connection) {
        const told = identity.told();
        const closed = server.onclose;
        server.onclose = () => {
          told.dispose();
          closed?.();
        };
      }
      // What the client can do is said by each request of this revision.
      const declared = (ctx: ServerContext): { elicitation?: unknown; extensions?: unknown } | undefined =>
        (ctx.mcpReq.envelope as Record<string, { elicitation?: unknown } | undefined> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? server.getClientCapabilities();
      const elicits = (ctx: ServerContext): boolean => declared(ctx)?.elicitation !== undefined;
      /** Whether the client shows MCP Apps views, and they are wanted (the editor follows VS Code's own setting). */
      const apps = (ctx: ServerContext): boolean => clientShowsApps(declared(ctx)) && (source.showsApps?.() ?? true);
      // zot's activation belongs to a conversation: here to one connection's server; one made per request keeps none.
      const activated: Activation | undefined = connection ? { names: new Set(), changed: () => void server.sendToolListChanged().catch(() => undefined) } : undefined;
      server.setRequestHandler('tools/list', async (_request, ctx) => {
        await source.host.whenLoaded();
        return { tools: [...listTools(source.host, reportNames, elicits(ctx), scope, apps(ctx), activated?.names), ...guardTools()] };
      });
      server.setRequestHandler('tools/call', (request, ctx) => (request.params.name === GUARD_TOOL && servesGuardTool() ? callGuardTool(source, request.params.arguments, log) : callTool(request.params, ctx, elicits(ctx), () => apps(ctx), activated)));
      // The views' pages, one per interactive tool served to a client that shows them.
      server.setRequestHandler('resources/list', async (_request, ctx) => {
        await source.host.whenLoaded();
        return { resources: apps(ctx) ? viewResources(servedInteractive(source.host, scope)) : [] };
      });
      server.setRequestHandler('resources/read', async (request) => {
        await source.host.whenLoaded();
        const view = readView(request.params.uri, servedInteractive(source.host, scope));
        if (!view) throw new ProtocolError(RESOURCE_NOT_FOUND, `no resource ${request.params.uri.slice(0, 200)}`);
        return view;
      });
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
      views.dispose();
      calls.dispose();
      ownInstructions?.dispose();
    },
  };
}
