/**
 * What the MCP server says about zot tools, the same in both MCP eras (the
 * 2025 sessions of bridge.ts and the per-request 2026 server of modern.ts):
 * the tool list with its names, titles and annotations, which zot tool an MCP
 * name stands for, and a zot outcome as an MCP result.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { preview, type ContentBlock } from '../protocol/index.js';
import { outcomeLabel, type HostReader, type NotifyLevel, type ToolEntry, type ToolOutcome } from '../host/index.js';
import { blocksText, decodableImage } from '../host/content.js';
import { HOST_VERSION } from '../host/version.js';
import { MCP_TOOL_NAME, servedTools, type ToolNameTable } from './toolNames.js';

/** Who the server says it is: every extension's (`/mcp`, stdio), or the server of extension `scope`. */
export function serverIdentity(scope: string | undefined): { info: { name: string; title: string; version: string }; instructions: string } {
  return scope === undefined
    ? { info: { name: 'zot-extensions', title: 'zot extensions', version: HOST_VERSION }, instructions: 'Tools and commands (as prompts) provided by zot extensions running on this machine.' }
    : { info: { name: `zot-${scope}`, title: `zot: ${scope}`, version: HOST_VERSION }, instructions: `Tools and commands (as prompts) of the zot extension "${scope}".` };
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
export function resolveToolName(host: HostReader, name: string, clientElicits: boolean, scope?: string): string | undefined {
  const tool = servedTools(host, clientElicits, scope).served.get(name);
  if (tool) return tool.name;
  if (!MCP_TOOL_NAME.test(name)) return undefined;
  if (scope === undefined) return name;
  const owner = host.findTool(name)?.extension;
  return owner === undefined || owner === scope ? name : undefined;
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

