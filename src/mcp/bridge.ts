/**
 * zot tools as an MCP server: the same bridge serves stdio (`zot-host mcp`)
 * and, inside VS Code, a Streamable HTTP endpoint for agent mode. Each MCP
 * tool call goes the agent's way (the tool_call event, intercepts, the call),
 * and MCP cancellation cancels the zot call. zot commands are its prompts
 * (prompts.ts). An extension's notes reach the client: a note sent while the
 * extension handles a call whose client asked for progress is that call's
 * `notifications/progress`; any other note is a log message
 * (`notifications/message`, at the level the client set with
 * `logging/setLevel`), its logger the extension's name.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ElicitResultSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { MAX_VALUE_DEPTH, deeperThan, preview, type ContentBlock } from '../protocol/index.js';
import { outcomeLabel, type HostReader, type NotifyLevel, type ToolEntry, type ToolOutcome } from '../host/index.js';
import { blocksText, decodableImage } from '../host/content.js';
import { HOST_VERSION } from '../host/version.js';
import { ElicitingPanels } from './elicit.js';
import { registerPrompts } from './prompts.js';
import { withSignal, type HostSource } from './source.js';
import { MCP_TOOL_NAME, servedTools, type ToolNameTable } from './toolNames.js';

/**
 * `log` hears, once per tool, each name that had to be mapped or was refused
 * (see toolNames.ts). `scope`: serve only that extension's tools, prompts
 * and notes (the editor's server per extension); without it, every one's.
 */
export function createBridgeServer(source: HostSource, log: (line: string) => void = () => undefined, scope?: string): { server: Server; dispose(): void } {
  const server = new Server(
    scope === undefined ? { name: 'zot-extensions', title: 'zot extensions', version: HOST_VERSION } : { name: `zot-${scope}`, title: `zot: ${scope}`, version: HOST_VERSION },
    {
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, logging: {} },
      instructions: scope === undefined ? 'Tools and commands (as prompts) provided by zot extensions running on this machine.' : `Tools and commands (as prompts) of the zot extension "${scope}".`,
    },
  );
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
    // A deeper value could not be written to the extension (JSON.stringify would overflow).
    if (deeperThan(args, MAX_VALUE_DEPTH)) return errorResult(`arguments nested deeper than ${MAX_VALUE_DEPTH} levels are refused`);
    const name = resolveToolName(host, request.params.name, clientElicits(), scope);
    if (name === undefined) return errorResult(`no tool named "${preview(request.params.name, 80)}"`);
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

  const told = new Set<string>();
  const reportNames = (table: ToolNameTable<ToolEntry>): void => {
    const say = (t: ToolEntry, line: string): void => {
      const key = `${t.extension}\0${t.name}`;
      if (told.has(key)) return;
      told.add(key);
      log(line);
    };
    for (const { tool, as } of table.mapped) say(tool, `MCP: tool "${preview(tool.name, 80)}" of extension "${tool.extension}" is served as "${as}" (MCP tool names are 1 to 64 of A-Z a-z 0-9 _ -)`);
    for (const { tool, reason } of table.refused) say(tool, `MCP: tool "${preview(tool.name, 80)}" of extension "${tool.extension}" is not served: ${reason}`);
  };

  let initialized = false;
  server.oninitialized = () => (initialized = true);
  const sub = source.onDidChangeRegistry(() => {
    if (!initialized) return;
    server.sendToolListChanged().catch(() => undefined);
    server.sendPromptListChanged().catch(() => undefined);
  });
  const notes = source.onNote((note) => {
    if (!initialized || (scope !== undefined && note.extension !== scope)) return;
    const calls = progressing.get(note.extension);
    if (calls?.size) {
      for (const send of calls) send(note.message);
      return;
    }
    server.sendLoggingMessage({ level: LOG_LEVEL[note.level], logger: note.extension, data: note.message }, server.transport?.sessionId).catch(() => undefined);
  });
  return { server, dispose: () => { sub.dispose(); notes.dispose(); } };
}

/** Active tools under their MCP names; interactive ones only where the host can show their UI. */
export function listTools(host: HostReader, report: (table: ToolNameTable<ToolEntry>) => void = () => undefined, clientElicits = false, scope?: string): Tool[] {
  const table = servedTools(host, clientElicits, scope);
  report(table);
  return [...table.served].map(([name, t]) => ({
    name,
    description: t.description || `${name} (from the zot extension ${t.extension})`,
    inputSchema: objectSchema(t.schema),
    ...toolTitle(name, t),
  }));
}

/** A note's level as an MCP log level. */
const LOG_LEVEL: Record<NotifyLevel, 'info' | 'notice' | 'warning' | 'error'> = { info: 'info', success: 'notice', warn: 'warning', error: 'error' };

/**
 * What a tool's registration says about it: a title naming its extension,
 * and for an interactive tool that it is not read-only (it waits for the
 * user). Nothing more is claimed: a plain zot tool may do anything, which is
 * what MCP assumes of a tool without hints.
 */
function toolTitle(name: string, t: ToolEntry): Pick<Tool, 'title' | 'annotations'> {
  const title = `${name} (zot: ${t.extension})`;
  return { title, annotations: { title, ...(t.interactive && { readOnlyHint: false }) } };
}


/**
 * The zot tool an MCP name stands for. A valid name that is not listed (an
 * interactive tool without a UI, a tool gone since the list) still goes to the
 * host, which says why it cannot run; an invalid one never does. A server of
 * one extension reaches only that extension's tools.
 */
function resolveToolName(host: HostReader, name: string, clientElicits: boolean, scope?: string): string | undefined {
  const tool = servedTools(host, clientElicits, scope).served.get(name);
  if (tool) return tool.name;
  if (!MCP_TOOL_NAME.test(name)) return undefined;
  if (scope === undefined) return name;
  const owner = host.findTool(name)?.extension;
  return owner === undefined || owner === scope ? name : undefined;
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** MCP requires an object schema at the top; zot only requires valid JSON. */
function objectSchema(schema: Record<string, unknown>): Tool['inputSchema'] {
  return (schema.type === 'object' ? schema : { ...schema, type: 'object' }) as Tool['inputSchema'];
}

export function toCallToolResult(o: ToolOutcome): CallToolResult {
  if (o.outcome !== 'completed') {
    const text = o.content.length ? `${blocksText(o.content)}\n(${outcomeLabel(o.outcome)}: ${o.message})` : `${outcomeLabel(o.outcome)}: ${o.message}`;
    return { isError: true, content: [{ type: 'text', text }] };
  }
  const content = toMcpContent(o.content);
  return { isError: o.isError, content };
}

export function toMcpContent(blocks: ContentBlock[]): CallToolResult['content'] {
  const out: CallToolResult['content'] = [];
  for (const b of blocks) {
    const image = decodableImage(b);
    if (b.type === 'text') {
      if (b.text !== '') out.push({ type: 'text', text: b.text });
    } else if (image) {
      out.push({ type: 'image', data: image.data, mimeType: image.mime });
    } else if (b.type === 'image') {
      out.push({ type: 'text', text: '[an image the extension sent could not be decoded]' });
    } else {
      out.push({ type: 'text', text: `[unknown block type "${b.other_type}" from the extension]` });
    }
  }
  if (out.length === 0) out.push({ type: 'text', text: '(the extension returned no content)' });
  return out;
}

export { hostSource, type HostSource } from './source.js';
