/**
 * What the MCP server says about zot tools, the same in both MCP eras (the
 * 2025 sessions of bridge.ts and the per-request 2026 server of modern.ts):
 * the tool list with its names, titles and annotations, which zot tool an MCP
 * name stands for, and a zot outcome as an MCP result.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { authorityOf, preview, type AuthorityClass, type ContentBlock } from '../../protocol/index.js';
import { blocksText, decodableImage, HOST_VERSION, type HostReader, type NotifyLevel, outcomeLabel, type ToolEntry, type ToolOutcome } from '../../host/index.js';
import { MCP_TOOL_NAME, servedTools, type ToolNameTable } from './toolNames.js';
import { APP_TOOLS, appTools, viewMeta } from './apps.js';

/**
 * Who the server says it is: every extension's (`/mcp`, stdio), or the server
 * of extension `scope`. Its instructions end with `context`, the standing
 * model context of the extensions it serves (ZotHost.modelContext: one
 * `<extension-context>` element each, escaped), as it is when the server is made.
 */
export function serverIdentity(scope: string | undefined, context = ''): { info: { name: string; title: string; version: string }; instructions: string } {
  const who = scope === undefined
    ? { info: { name: 'zot-extensions', title: 'zot extensions', version: HOST_VERSION }, instructions: 'Tools and commands (as prompts) provided by zot extensions running on this machine.' }
    : { info: { name: `zot-${scope}`, title: `zot: ${scope}`, version: HOST_VERSION }, instructions: `Tools and commands (as prompts) of the zot extension "${scope}".` };
  return context ? { ...who, instructions: `${who.instructions}\n\n${context}` } : who;
}

/** What both eras' servers can do. */
export const SERVER_CAPABILITIES = { tools: { listChanged: true }, prompts: { listChanged: true }, logging: {} };

/** A note's level as an MCP log level. */
export const LOG_LEVEL: Record<NotifyLevel, 'info' | 'notice' | 'warning' | 'error'> = { info: 'info', success: 'notice', warn: 'warning', error: 'error' };

/**
 * Tells `log`, once per tool for the life of the reporter, each name that had
 * to be mapped or was refused (see toolNames.ts).
 */
export function nameReporter(log: (line: string) => void): (table: ToolNameTable<ToolEntry>) => void {
  const told = new Set<string>();
  const say = (t: ToolEntry, line: string): void => {
    const key = `${t.extension}\0${t.name}`;
    if (told.has(key)) return;
    told.add(key);
    log(line);
  };
  return (table) => {
    for (const { tool, as } of table.mapped) say(tool, `MCP: tool "${preview(tool.name, 80)}" of extension "${tool.extension}" is served as "${as}" (MCP tool names are 1 to 64 of A-Z a-z 0-9 _ -)`);
    for (const { tool, reason } of table.refused) say(tool, `MCP: tool "${preview(tool.name, 80)}" of extension "${tool.extension}" is not served: ${reason}`);
  };
}

/**
 * Active tools under their MCP names; interactive ones only where the host
 * can show their UI. To a client that shows MCP Apps (`apps`), an
 * interactive tool names its view, and the views' own tools are listed too
 * (apps.ts): an extension's tool of one of their names is not.
 */
export function listTools(host: HostReader, report: (table: ToolNameTable<ToolEntry>) => void = () => undefined, clientElicits = false, scope?: string, apps = false, activated?: ReadonlySet<string>): Tool[] {
  const table = servedTools(host, clientElicits || apps, scope, false, apps ? APP_TOOLS : []);
  report(table);
  const tools: Tool[] = [];
  for (const [name, t] of table.served) {
    // zot's deferred tools: served by name from the start (the name table keeps their names), listed once a result of this session activated them.
    if (t.deferred && !activated?.has(t.name)) continue;
    const output = outputSchema(t.outputSchema);
    tools.push({
      name,
      description: t.description || `${name} (from the zot extension ${t.extension})`,
      inputSchema: objectSchema(t.schema),
      ...(output && { outputSchema: output }),
      ...toolTitle(name, t),
      ...(apps && t.interactive && { _meta: viewMeta(name) }),
    });
  }
  return apps ? [...tools, ...appTools()] : tools;
}

/** The MCP names of the interactive tools a client that shows MCP Apps is served. */
export function servedInteractive(host: HostReader, scope?: string): string[] {
  return [...servedTools(host, true, scope, false, APP_TOOLS).served].filter(([, t]) => t.interactive).map(([name]) => name);
}


/**
 * MCP's hints for each of terva's authority classes (docs/TERVA.md 22). MCP cannot
 * say "writes only its own data directory", so `local-data` is honestly not
 * read-only, yet neither destructive nor open-world.
 */
const AUTHORITY_HINTS: Readonly<Record<AuthorityClass, { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean }>> = {
  'local-read': { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  'local-data': { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  'workspace-mutation': { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  'process-execution': { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  'network-read': { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  'external-mutation': { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
};

/**
 * What a tool's registration says about it: a title naming its extension;
 * the hints of its authority class (`authority`, or `read_only` alone as
 * `local-read`); and for an interactive tool that it is not read-only (it
 * waits for the user). A tool with no class, or one this host does not know,
 * gets no hints: it may do anything, which is what MCP assumes of a tool
 * without them.
 */
function toolTitle(name: string, t: ToolEntry): Pick<Tool, 'title' | 'annotations'> {
  const title = `${name} (zot: ${t.extension})`;
  const authority = authorityOf(t.authority, t.readOnly);
  return { title, annotations: { title, ...(authority && AUTHORITY_HINTS[authority]), ...(t.interactive && { readOnlyHint: false }) } };
}


/**
 * The zot tool an MCP name stands for. A valid name that is not listed (an
 * interactive tool without a UI, a tool gone since the list) still goes to the
 * host, which says why it cannot run; an invalid one never does. A server of
 * one extension reaches only that extension's tools.
 */
export function resolveToolName(host: HostReader, name: string, clientElicits: boolean, scope?: string): string | undefined {
  // A withdrawn tool keeps the MCP name it had, so a call by that name can be told why it does not run.
  const tool = servedTools(host, clientElicits, scope).served.get(name) ?? servedTools(host, clientElicits, scope, true).served.get(name);
  if (tool) return tool.name;
  if (!MCP_TOOL_NAME.test(name)) return undefined;
  if (scope === undefined) return name;
  const owner = host.findTool(name)?.extension;
  return owner === undefined || owner === scope ? name : undefined;
}

/** The error a call of a withdrawn tool gets, before anything is sent or announced; undefined when the tool is not withdrawn. */
export function withdrawnResult(host: HostReader, name: string): CallToolResult | undefined {
  const tool = host.findTool(name);
  return tool?.withdrawn ? errorResult(`extension "${tool.extension}" has withdrawn the tool "${preview(tool.name, 80)}" for now (set_withdrawn_tools); list the tools again`) : undefined;
}

export function errorResult(text: string): CallToolResult {
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
  // zot's structured_content: for programs; the text stays what models read. MCP's is always an object.
  const structured = isObject(o.structured) ? { structuredContent: o.structured } : {};
  return { isError: o.isError, content, ...structured };
}

/**
 * zot's `output_schema` as MCP's `outputSchema`, which must describe an
 * object: one that does not is left out (MCP clients would refuse the tool).
 */
function outputSchema(schema: unknown): Tool['outputSchema'] | undefined {
  return isObject(schema) && schema.type === 'object' ? (schema as Tool['outputSchema']) : undefined;
}

/**
 * What a result says of the tool's declared output, for the log: a
 * successful result without the structured content its outputSchema
 * promises (MCP clients check it and may fail the call), or structured
 * content that is not an object (MCP carries objects only). Undefined when
 * there is nothing to say.
 */
export function structuredNote(tool: { name: string; extension: string; outputSchema?: unknown } | undefined, o: ToolOutcome): string | undefined {
  if (!tool || o.outcome !== 'completed') return undefined;
  if (o.structured !== undefined && !isObject(o.structured)) return `MCP: tool "${preview(tool.name, 80)}" of extension "${tool.extension}" returned structured_content that is not a JSON object; MCP carries objects only, so it was left out`;
  if (!o.isError && o.structured === undefined && outputSchema(tool.outputSchema)) return `MCP: tool "${preview(tool.name, 80)}" of extension "${tool.extension}" declares an output_schema but returned no structured_content; MCP clients that check it may fail the call`;
  return undefined;
}

/**
 * zot's activation: the deferred tools a result names join this session's
 * list (unknown names and tools that are listed anyway are ignored).
 * Returns whether the list changed, for `notifications/tools/list_changed`.
 */
export function activateFrom(host: HostReader, o: ToolOutcome, activated: Set<string>): boolean {
  if (o.outcome !== 'completed' || !o.activate) return false;
  let changed = false;
  for (const name of o.activate) {
    if (activated.has(name) || !host.findTool(name)?.deferred) continue;
    activated.add(name);
    changed = true;
  }
  return changed;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toMcpContent(blocks: ContentBlock[]): CallToolResult['content'] {
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

