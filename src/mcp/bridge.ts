/**
 * zot tools as an MCP server for clients on MCP's 2025-11-25 revision (and
 * the 2025 ones before it: VS Code today), in a session that `initialize`
 * opens; the stateless 2026-07-28 revision is modern.ts, with the same tools
 * and prompts (tools.ts, prompts.ts). The same bridge serves stdio
 * (`zot-host mcp`) and, inside VS Code, a Streamable HTTP endpoint for agent
 * mode. Each MCP
 * tool call goes the agent's way (the tool_call event, intercepts, the call),
 * and MCP cancellation cancels the zot call. zot commands are its prompts
 * (prompts.ts). An extension's notes reach the client: a note sent while the
 * extension handles a call whose client asked for progress is that call's
 * `notifications/progress`; any other note is a log message
 * (`notifications/message`, at the level the client set with
 * `logging/setLevel`), its logger the extension's name.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { preview } from '../protocol/index.js';
import { ElicitingPanels } from './elicit.js';
import { registerPrompts } from './prompts.js';
import { Instructions } from './instructions.js';
import { onListsChanged, withSignal, type HostSource } from './source.js';
import { LOG_LEVEL, SERVER_CAPABILITIES, errorResult, listTools, nameReporter, resolveToolName, toCallToolResult, withdrawnResult } from './tools.js';

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
  /** Calls in flight whose client asked for progress, by the extension that runs them. */
  const progressing = new Map<string, Set<(message: string) => void>>();

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // A client that lists right after connecting sees every tool: wait for the ready phase first.
    await source.host.whenLoaded();
    return { tools: listTools(source.host, reportNames, clientElicits(), scope) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const host = source.host;
    await host.whenLoaded();
    const args = request.params.arguments ?? {};
    const name = resolveToolName(host, request.params.name, clientElicits(), scope);
    if (name === undefined) return errorResult(`no tool named "${preview(request.params.name, 80)}"`);
    const withdrawn = withdrawnResult(host, name);
    if (withdrawn) return withdrawn;
    // A host without a UI of its own shows this call's panels as the client's forms, when the client has them.
    const panelUi = !host.interactive && clientElicits() ? new ElicitingPanels((r) => extra.sendRequest(r, ElicitResultSchema)) : undefined;
    const owner = host.findTool(name)?.extension;
    const progressToken = request.params._meta?.progressToken;
    let progress: ((message: string) => void) | undefined;
    if (owner !== undefined && progressToken !== undefined) {
      let n = 0;
      progress = (message) => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++n, message } }).catch(() => undefined);
      progressing.set(owner, (progressing.get(owner) ?? new Set()).add(progress));
    }
    try {
      const outcome = await withSignal(extra.signal, (token) => host.runToolCall(name, args, { token, toolId: `mcp-${String(extra.requestId)}`, ...(panelUi && { panelUi }) }));
      return toCallToolResult(outcome);
    } finally {
      if (progress) progressing.get(owner!)?.delete(progress);
    }
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
  const notes = source.onNote((note) => {
    if (!initialized || (scope !== undefined && note.extension !== scope)) return;
    const calls = progressing.get(note.extension);
    if (calls?.size) {
      for (const send of calls) send(note.message);
      return;
    }
    server.sendLoggingMessage({ level: LOG_LEVEL[note.level], logger: note.extension, data: note.message }, server.transport?.sessionId).catch(() => undefined);
  });
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

export { hostSource, type HostSource } from './source.js';
