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
 * `logging/setLevel`), its logger the extension's name.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { NoteRouter, prepareCall } from '../shared/callPath.js';
import { ElicitingPanels } from '../shared/elicit.js';
import { registerPrompts } from '../shared/prompts.js';
import { Instructions } from '../shared/instructions.js';
import { onListsChanged, withSignal, type HostSource } from '../shared/source.js';
import { LOG_LEVEL, SERVER_CAPABILITIES, listTools, nameReporter, toCallToolResult } from '../shared/tools.js';

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
  const server = new Server(identity.info, { capabilities: SERVER_CAPABILITIES, instructions: identity.instructions });
  // A note goes to the calls of its extension whose client asked for progress, else to the log.
  const notes = new NoteRouter(source, scope, (note) => {
    if (initialized) server.sendLoggingMessage({ level: LOG_LEVEL[note.level], logger: note.extension, data: note.message }, server.transport?.sessionId).catch(() => undefined);
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // A client that lists right after connecting sees every tool: wait for the ready phase first.
    await source.host.whenLoaded();
    return { tools: listTools(source.host, reportNames, clientElicits(), scope) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const call = await prepareCall(source, request.params, `mcp-${String(extra.requestId)}`, clientElicits(), scope);
    if ('refused' in call) return call.refused;
    // A host without a UI of its own shows this call's panels as the client's forms, when the client has them.
    const panelUi = !source.host.interactive && clientElicits() ? new ElicitingPanels((r) => extra.sendRequest(r, ElicitResultSchema)) : undefined;
    const progressToken = request.params._meta?.progressToken;
    let n = 0;
    const progress = progressToken === undefined
      ? undefined
      : (_level: unknown, message: string): void => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++n, message } }).catch(() => undefined);
    return notes.hear(call.owner, progress, async () => toCallToolResult(await withSignal(extra.signal, (token) => call.run(token, panelUi))));
  });

  registerPrompts(server, source, scope);
  /** Whether the client answers elicitation requests (its interactive tools are then served). */
  const clientElicits = (): boolean => server.getClientCapabilities()?.elicitation !== undefined;

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
      told?.dispose();
      ownInstructions?.dispose();
    },
  };
}

export { hostSource, type HostSource } from '../shared/source.js';
