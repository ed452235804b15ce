/**
 * zot tools as an MCP server for clients on MCP's 2025-11-25 revision (and
 * the 2025 ones before it: VS Code today), in a session that `initialize`
 * opens; the stateless 2026-07-28 revision is modern.ts, with the same tools
 * and prompts (tools.ts, prompts.ts). The same bridge serves stdio
 * (`zot-host mcp`) and, inside VS Code, a Streamable HTTP endpoint for agent
 * mode. Each MCP
 * tool call goes the agent's way (callPath.ts: the host's one door, with the
 * tool_call event, intercepts, the call), and MCP cancellation cancels the
 * zot call. zot commands are its prompts
 * (prompts.ts). An extension's notes reach the client: a note sent while the
 * extension handles a call whose client asked for progress is that call's
 * `notifications/progress`; any other note is a log message
 * (`notifications/message`, at the level the client set with
 * `logging/setLevel`), its logger the extension's name. To a client that
 * shows MCP Apps, an interactive tool's panel is a view inline in the chat
 * (apps.ts), its page one of the server's resources.
 */
import { callGuardTool, guardTools, servesGuardTool } from '../hooks/guardTool.js';
import { GUARD_TOOL } from '../../host/hooks/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ElicitResultSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { APP_TOOLS, AppViews, RESOURCE_NOT_FOUND, clientShowsApps, readView, viewResources } from '../shared/apps.js';
import { NoteRouter, prepareCall, runViewed } from '../shared/callPath.js';
import { ElicitingPanels } from '../shared/elicit.js';
import { registerPrompts } from '../shared/prompts.js';
import { Instructions } from '../shared/instructions.js';
import { onListsChanged, withSignal, type HostSource } from '../shared/source.js';
import { LOG_LEVEL, SERVER_CAPABILITIES, activateFrom, listTools, nameReporter, servedInteractive, structuredNote, toCallToolResult } from '../shared/tools.js';

/**
 * `log` hears, once per tool, each name that had to be mapped or was refused
 * (see toolNames.ts). `scope`: serve only that extension's tools, prompts
 * and notes (the editor's server per extension); without it, every one's.
 * The instructions carry the extensions' model context as it is now;
 * `instructions`, shared by the sessions of one server, tells `log` once when
 * it changes under connected clients (a bridge without one has its own).
 */
export function createBridgeServer(source: HostSource, log: (line: string) => void = () => undefined, scope?: string, instructions?: Instructions): { server: Server; dispose(): void } {
  const ownInstructions = instructions ? undefined : new Instructions(source, log);
  const identity = (instructions ?? ownInstructions!).identity(scope);
  const server = new Server(identity.info, { capabilities: { ...SERVER_CAPABILITIES, resources: {} }, instructions: identity.instructions });
  const views = new AppViews(log);
  // zot's deferred tools this session's results activated: listed to this client from then on.
  const activated = new Set<string>();
  // A note goes to the calls of its extension whose client asked for progress, else to the log.
  const notes = new NoteRouter(source, scope, (note) => {
    if (initialized) server.sendLoggingMessage({ level: LOG_LEVEL[note.level], logger: note.extension, data: note.message }, server.transport?.sessionId).catch(() => undefined);
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // A client that lists right after connecting sees every tool: wait for the ready phase first.
    await source.host.whenLoaded();
    return { tools: [...listTools(source.host, reportNames, clientElicits(), scope, clientApps(), activated), ...guardTools()] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // The guard tool's name first: any other call never enters its module.
    if (request.params.name === GUARD_TOOL && servesGuardTool()) return callGuardTool(source, request.params.arguments, log);
    const apps = clientApps();
    // A view's own tools, before any zot tool: an extension's tool of that name is not served to this client.
    if (apps && APP_TOOLS.includes(request.params.name)) {
      return views.serve(request.params.name, request.params.arguments ?? {}, extra.signal);
    }
    const call = await prepareCall(source, request.params, `mcp-${String(extra.requestId)}`, clientElicits() || apps, scope);
    if ('refused' in call) return call.refused;
    // A host without a UI of its own shows this call's panels as the client's forms, when the client has them.
    const forms = !source.host.interactive && clientElicits() ? new ElicitingPanels((r) => extra.sendRequest(r, ElicitResultSchema), views) : undefined;
    const progressToken = request.params._meta?.progressToken;
    let n = 0;
    const progress = progressToken === undefined
      ? undefined
      : (_level: unknown, message: string): void => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++n, message } }).catch(() => undefined);
    // To a client that shows MCP Apps, an interactive tool's panels show in its view; the other way where none asks for them.
    const outcome = await notes.hear(call.owner, progress, () => withSignal(extra.signal, (token) => runViewed(call, request.params, token, source, apps ? views : undefined, forms)));
    const note = structuredNote(source.host.findTool(call.name), outcome);
    if (note) log(note);
    if (activateFrom(source.host, outcome, activated) && initialized) server.sendToolListChanged().catch(() => undefined);
    return toCallToolResult(outcome);
  });

  // The views' pages, one per interactive tool served to a client that shows them.
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    await source.host.whenLoaded();
    return { resources: clientApps() ? viewResources(servedInteractive(source.host, scope)) : [] };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    await source.host.whenLoaded();
    const view = readView(request.params.uri, servedInteractive(source.host, scope));
    if (!view) throw new McpError(RESOURCE_NOT_FOUND, `no resource ${request.params.uri.slice(0, 200)}`);
    return view;
  });

  registerPrompts(server, source, scope);
  /** Whether the client answers elicitation requests (its interactive tools are then served). */
  const clientElicits = (): boolean => server.getClientCapabilities()?.elicitation !== undefined;
  /** Whether the client shows MCP Apps views, and they are wanted (the editor follows VS Code's own setting). */
  const clientApps = (): boolean => clientShowsApps(server.getClientCapabilities()) && (source.showsApps?.() ?? true);

  const reportNames = nameReporter(log);

  let initialized = false;
  let told: { dispose(): void } | undefined;
  server.oninitialized = () => {
    initialized = true;
    told ??= identity.told();
  };
  const sub = onListsChanged(
    source,
    scope,
    () => {
      if (initialized) server.sendToolListChanged().catch(() => undefined);
    },
    () => {
      if (initialized) server.sendPromptListChanged().catch(() => undefined);
    },
  );
  return {
    server,
    dispose: () => {
      sub.dispose();
      notes.dispose();
      views.dispose();
      told?.dispose();
      ownInstructions?.dispose();
    },
  };
}

export { hostSource, type HostSource } from '../shared/source.js';
