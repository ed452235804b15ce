/**
 * What the MCP server modules share: the host they serve (one that VS Code's
 * host manager may replace over time, or a fixed one), and the one way an
 * MCP request's abort signal becomes a host cancellation token.
 */
import { CancellationTokenSource, type CancellationToken } from 'vscode-jsonrpc/node';
import { authorityOf, isOffered, type TervaEvent, type HostCalls, type NoteEvent } from '../../host/index.js';

/** A host that may be replaced over time (VS Code's host manager), or a fixed one. */
export interface HostSource {
  readonly host: HostCalls;
  onDidChangeRegistry(listener: () => void): { dispose(): void };
  /** Every extension's notes, across host replacements. */
  onNote(listener: (note: NoteEvent) => void): { dispose(): void };
  /** terva's notices: what changed for which extension (its model context, for the servers' instructions); absent: never told. */
  onDidChangeTerva?(listener: (e: TervaEvent) => void): { dispose(): void };
  /** Whether panels are to be views inline in a chat that shows MCP Apps (VS Code: `chat.mcp.apps.enabled`); absent: yes. */
  showsApps?(): boolean;
}

export function hostSource(h: HostCalls | HostSource): HostSource {
  return 'host' in h ? h : { host: h, onDidChangeRegistry: (l) => h.onDidChangeRegistry(l), onNote: (l) => h.onNote(l), onDidChangeTerva: (l) => h.onDidChangeTerva(l) };
}

/**
 * Calls `tools` or `prompts` when what a server of `scope` (an extension's
 * name; undefined: all of them) lists has changed, rather than at every change
 * of the registry: a server per extension is not told of the others'
 * changes, so its client lists again only its own.
 */
export function onListsChanged(source: HostSource, scope: string | undefined, tools: () => void, prompts: () => void): { dispose(): void } {
  let last = listKeys(source.host, scope);
  return source.onDidChangeRegistry(() => {
    const now = listKeys(source.host, scope);
    if (now.tools !== last.tools) tools();
    if (now.prompts !== last.prompts) prompts();
    last = now;
  });
}

/**
 * What a server of `scope` lists, as text to compare: its tools (a withdrawn
 * one is not listed; its authority class is in its annotations) and its
 * prompts (the commands).
 */
export function listKeys(host: HostCalls, scope: string | undefined): { tools: string; prompts: string } {
  const mine = (e: { extension: string; active: boolean }): boolean => e.active && (scope === undefined || e.extension === scope);
  return {
    tools: JSON.stringify(host.tools().filter((t) => mine(t) && isOffered(t)).map((t) => [t.extension, t.name, t.description, t.interactive, t.schema, authorityOf(t.authority, t.readOnly) ?? null])),
    prompts: JSON.stringify(host.commands().filter(mine).map((c) => [c.extension, c.name, c.description])),
  };
}

/** Runs `work` with a token cancelled when `signal` aborts (already aborted: cancelled at once); cleans up after. */
export async function withSignal<T>(signal: AbortSignal, work: (token: CancellationToken) => Promise<T>): Promise<T> {
  const cancel = new CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) cancel.cancel();
  try {
    return await work(cancel.token);
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}
