/**
 * terva's `host_tool_call` in VS Code (docs/TERVA.md 16.9, 22): what is refused,
 * who is asked, how long a call may take and what its result becomes. It
 * imports nothing from VS Code: hostTools.ts gives it `vscode.lm`'s tools,
 * the modal question and the workspace's trust.
 *
 * - A project-local extension of an untrusted workspace gets no host tools.
 * - No call reaches a tool this host provides: any zot extension's tool, by
 *   its own name or by the name an MCP server gives it in `lm.tools`
 *   (`mcp_<server>_<tool>`), nor anything of zot's MCP server.
 * - A name that is not a tool of this window is an error at once.
 * - The call comes outside any chat turn, so a person is asked first, every
 *   time unless they allowed that tool for that extension for the rest of the
 *   window's session; `silent` changes nothing about that.
 * - Once allowed, the tool has 25 s (under the SDK's 30 s); the extension's
 *   connection going cancels it too.
 */
import type { ContentBlock, HostToolAnswer, HostToolRequest, HostTools } from '../../host/index.js';

/** The token the host passes with each call: cancelled when the extension's connection goes. */
export interface CancellationToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** How long a tool may run once allowed: under the Go SDK's 30 s wait, so the extension hears why. */
export const HOST_TOOL_DEADLINE_MS = 25_000;

/** zot's own MCP server, by whatever label a client gives it (the host refuses these names too). */
const ZOT_MCP_NAME = /^mcp_{1,2}zot/i;

/** A tool as `vscode.lm.tools` lists it. */
export interface LmToolInfo { readonly name: string }

/** What the person asked answered: once, for the rest of this session, or no. */
export type Permission = 'once' | 'session' | undefined;

/** A cancellation the runner makes for each call: what `invoke` gets. */
export interface CallCancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface HostToolDeps {
  /** Whether the workspace is trusted. */
  trusted(): boolean;
  /** `vscode.lm.tools`, now. */
  tools(): readonly LmToolInfo[];
  /** The names of the tools zot's extensions registered, now. */
  zotToolNames(): Iterable<string>;
  /** Asks the person whether the extension may run the tool; undefined: no. */
  ask(extension: string, tool: string, args: Record<string, unknown>): Promise<Permission>;
  /** `vscode.lm.invokeTool`: the result's parts. */
  invoke(name: string, args: Record<string, unknown>, token: CallCancellation): Promise<readonly unknown[]>;
  log?(line: string): void;
  deadlineMs?: number;
}

/** The safe form a name takes as an MCP tool name (src/mcp/shared/toolNames.ts), lower case. */
function mcpForm(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]+/g, '_').toLowerCase();
}

/** Whether `name` (asked for, or a tool of `lm.tools`) is one of zot's own tools, under any name VS Code gives it. */
export function isZotToolName(name: string, zotTools: Iterable<string>): boolean {
  if (ZOT_MCP_NAME.test(name)) return true;
  const n = name.toLowerCase();
  for (const z of zotTools) {
    const form = mcpForm(z);
    if (n === z.toLowerCase() || n === form) return true;
    if (/^mcp_/.test(n) && n.endsWith(`_${form}`)) return true;
  }
  return false;
}

/** Why the call may not run before anyone is asked, or undefined. */
export function refusalOf(request: Pick<HostToolRequest, 'extension' | 'name'>, deps: Pick<HostToolDeps, 'trusted' | 'tools' | 'zotToolNames'>): string | undefined {
  const { extension, name } = request;
  if (extension.found.source === 'project' && !deps.trusted()) {
    return `host tools are not offered to "${extension.name}": it is a project extension and this workspace is not trusted`;
  }
  const zot = [...deps.zotToolNames()];
  if (isZotToolName(name, zot)) return `"${name}" is a zot extension's tool; host tool calls reach only the host's own tools`;
  if (!deps.tools().some((tool) => tool.name === name)) {
    return `there is no tool "${name}" in this VS Code window (its tools have names of their own: terva's read, grep or bash are not among them)`;
  }
  return undefined;
}

/** A tool result's parts as content blocks: text as text, an image as an image, anything else named in a text. */
export function blocksOfResult(parts: readonly unknown[]): ContentBlock[] {
  return parts.map((part): ContentBlock => {
    const p = part as { value?: unknown; mimeType?: unknown; data?: unknown } | null | undefined;
    if (p && typeof p.value === 'string') return { type: 'text', text: p.value };
    if (p && typeof p.mimeType === 'string' && p.data instanceof Uint8Array) {
      if (p.mimeType.toLowerCase().startsWith('image/')) return { type: 'image', mime_type: p.mimeType, data: Buffer.from(p.data).toString('base64') };
      return { type: 'text', text: `[a data part (${p.mimeType}, ${p.data.byteLength} bytes), which this host does not pass on]` };
    }
    return { type: 'text', text: `[a part of type ${partName(part)}, which this host does not pass on]` };
  });
}

function partName(part: unknown): string {
  if (part === null) return 'null';
  if (typeof part !== 'object') return typeof part;
  const name = (part as object).constructor?.name;
  return name && name !== 'Object' ? name : 'result';
}

const error = (text: string): HostToolAnswer => ({ content: [{ type: 'text', text }], isError: true });
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** HostTools over the deps: refusals, the question, the deadline and the result's blocks. */
export class HostToolRunner implements HostTools {
  /** `extension\0tool` pairs allowed for the rest of this session. */
  private readonly allowed = new Set<string>();

  constructor(private readonly deps: HostToolDeps) {}

  async call(request: HostToolRequest, token: CancellationToken): Promise<HostToolAnswer> {
    const who = request.extension.name;
    const refused = refusalOf(request, this.deps);
    if (refused) {
      this.deps.log?.(`host tool call from ${who}: ${request.name} refused: ${refused}`);
      return error(refused);
    }
    const pair = `${who}\0${request.name}`;
    if (!this.allowed.has(pair)) {
      const closed = whenCancelled(token);
      const answer = await Promise.race([this.deps.ask(who, request.name, request.args), closed.promise.then(() => 'gone' as const)]).finally(() => closed.dispose());
      if (answer === 'gone') return error(`the call of "${request.name}" was cancelled: the extension's connection closed`);
      if (answer === undefined) {
        this.deps.log?.(`host tool call from ${who}: ${request.name} not allowed`);
        return error(`the user did not allow "${who}" to run the tool "${request.name}"`);
      }
      if (answer === 'session') this.allowed.add(pair);
    }
    if (token.isCancellationRequested) return error(`the call of "${request.name}" was cancelled: the extension's connection closed`);
    return this.run(request, token);
  }

  private async run(request: HostToolRequest, token: CancellationToken): Promise<HostToolAnswer> {
    const ms = this.deps.deadlineMs ?? HOST_TOOL_DEADLINE_MS;
    const cancel = new Cancellation();
    const gone = token.onCancellationRequested(() => cancel.cancel());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
    const closed = whenCancelled(token);
    try {
      const got = await Promise.race([this.deps.invoke(request.name, request.args, cancel), late, closed.promise.then(() => 'gone' as const)]);
      if (got === 'late') {
        cancel.cancel();
        this.deps.log?.(`host tool call from ${request.extension.name}: ${request.name} ran out of time (${ms / 1000} s)`);
        return error(`the tool "${request.name}" did not finish within ${ms / 1000} s and was cancelled`);
      }
      if (got === 'gone') return error(`the call of "${request.name}" was cancelled: the extension's connection closed`);
      this.deps.log?.(`host tool call from ${request.extension.name}: ${request.name} done`);
      return { content: blocksOfResult(got), isError: false };
    } catch (err) {
      this.deps.log?.(`host tool call from ${request.extension.name}: ${request.name} failed: ${messageOf(err)}`);
      return error(`the tool "${request.name}" failed: ${messageOf(err)}`);
    } finally {
      clearTimeout(timer);
      gone.dispose();
      closed.dispose();
    }
  }
}

/** Resolves when the token is cancelled; dispose() drops its listener. */
function whenCancelled(token: CancellationToken): { promise: Promise<void>; dispose(): void } {
  let sub: { dispose(): void } | undefined;
  const promise = new Promise<void>((resolve) => {
    if (token.isCancellationRequested) resolve();
    else sub = token.onCancellationRequested(() => resolve());
  });
  return { promise, dispose: () => sub?.dispose() };
}

class Cancellation implements CallCancellation {
  private listeners: (() => void)[] = [];
  isCancellationRequested = false;

  cancel(): void {
    if (this.isCancellationRequested) return;
    this.isCancellationRequested = true;
    for (const l of this.listeners.splice(0)) l();
  }

  onCancellationRequested(listener: () => void): { dispose(): void } {
    if (this.isCancellationRequested) {
      listener();
      return { dispose: () => undefined };
    }
    this.listeners.push(listener);
    return { dispose: () => void (this.listeners = this.listeners.filter((l) => l !== listener)) };
  }
}
