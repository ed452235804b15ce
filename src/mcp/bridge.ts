/**
 * zot tools as an MCP server: the same bridge serves stdio (`zot-host mcp`)
 * and, inside VS Code, a Streamable HTTP endpoint for agent mode. Each MCP
 * tool call goes the agent's way (intercepts, the tool_call event, the call),
 * and MCP cancellation cancels the zot call. zot commands are its prompts
 * (prompts.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { ContentBlock } from '../protocol/index.js';
import type { ToolOutcome, ZotHost } from '../host/index.js';
import { blocksText, decodableImage } from '../host/content.js';
import { HOST_VERSION } from '../host/version.js';
import { registerPrompts } from './prompts.js';

/** A host that may be replaced over time (VS Code's host manager), or a fixed one. */
export interface HostSource {
  readonly host: ZotHost;
  onDidChangeRegistry(listener: () => void): { dispose(): void };
}

export function hostSource(h: ZotHost | HostSource): HostSource {
  return 'host' in h ? h : { host: h, onDidChangeRegistry: (l) => h.onDidChangeRegistry(l) };
}

export function createBridgeServer(source: HostSource): { server: Server; dispose(): void } {
  const server = new Server(
    { name: 'zot-extensions', title: 'zot extensions', version: HOST_VERSION },
    { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } }, instructions: 'Tools and commands (as prompts) provided by zot extensions running on this machine.' },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    // A client that lists right after connecting sees every tool: wait for the ready phase first.
    await source.host.whenLoaded();
    return { tools: listTools(source.host) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const host = source.host;
    await host.whenLoaded();
    const cancel = new CancellationTokenSource();
    const onAbort = (): void => cancel.cancel();
    extra.signal.addEventListener('abort', onAbort, { once: true });
    if (extra.signal.aborted) cancel.cancel();
    try {
      const outcome = await host.runToolCall(request.params.name, request.params.arguments ?? {}, {
        token: cancel.token,
        toolId: `mcp-${String(extra.requestId)}`,
      });
      return toCallToolResult(outcome);
    } finally {
      extra.signal.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  });

  registerPrompts(server, source);

  let initialized = false;
  server.oninitialized = () => (initialized = true);
  const sub = source.onDidChangeRegistry(() => {
    if (!initialized) return;
    server.sendToolListChanged().catch(() => undefined);
    server.sendPromptListChanged().catch(() => undefined);
  });
  return { server, dispose: () => sub.dispose() };
}

/** Active tools; interactive ones only where the host can show their UI. */
export function listTools(host: ZotHost): Tool[] {
  return host
    .tools()
    .filter((t) => t.active && (host.interactive || !t.interactive))
    .map((t) => ({
      name: t.name,
      description: t.description || `${t.name} (from the zot extension ${t.extension})`,
      inputSchema: objectSchema(t.schema),
      ...(t.interactive && { annotations: { title: t.name, readOnlyHint: false } }),
    }));
}

/** MCP requires an object schema at the top; zot only requires valid JSON. */
function objectSchema(schema: Record<string, unknown>): Tool['inputSchema'] {
  return (schema.type === 'object' ? schema : { ...schema, type: 'object' }) as Tool['inputSchema'];
}

export function toCallToolResult(o: ToolOutcome): CallToolResult {
  if (o.outcome !== 'completed') {
    const text = o.content.length ? `${blocksText(o.content)}\n(${o.outcome.replace('_', ' ')}: ${o.message})` : `${o.outcome.replace('_', ' ')}: ${o.message}`;
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
      const text = (b as { text?: unknown }).text;
      if (typeof text === 'string' && text !== '') out.push({ type: 'text', text });
    } else if (image) {
      out.push({ type: 'image', data: image.data, mimeType: image.mime });
    } else if (b.type === 'image') {
      out.push({ type: 'text', text: '[an image the extension sent could not be decoded]' });
    } else {
      out.push({ type: 'text', text: `[unknown block type "${b.type}" from the extension]` });
    }
  }
  if (out.length === 0) out.push({ type: 'text', text: '(the extension returned no content)' });
  return out;
}
