/**
 * The one way an MCP `tools/call` reaches the host, for both eras (the 2025
 * sessions of bridge.ts and the 2026 per-request servers of modern.ts): the
 * requested name resolved and checked (unknown, out of scope, withdrawn: an
 * error result before anything is announced), then the host's one door,
 * `runToolCall`, which checks the arguments, announces the call, runs the
 * intercepts and calls; for a client that shows MCP Apps, an interactive
 * call's panels in its inline view (runViewed). And the one way an
 * extension's notes find the requests whose calls it is handling: NoteRouter.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { preview } from '../../protocol/index.js';
import { outcomeLabel, type NoteEvent, type NotifyLevel, type PanelUI, type ToolOutcome } from '../../host/index.js';
import type { AppViews } from './apps.js';
import type { HostSource } from './source.js';
import { errorResult, resolveToolName, withdrawnResult } from './tools.js';

/** A call that will not run, with the result its client gets, or one ready to run. */
export type PreparedCall =
  | { refused: CallToolResult }
  | {
      /** The zot tool's name. */
      name: string;
      /** The extension that offers it. */
      owner: string | undefined;
      /** Whether it is an interactive tool (its panels ask the user). */
      interactive: boolean;
      /** Through the host's door; `panelUi` shows this call's panels where the host has no UI of its own. */
      run(token: CancellationToken, panelUi?: PanelUI): Promise<ToolOutcome>;
    };

/**
 * Resolves an MCP tool call of a server of `scope` (one extension's server;
 * undefined: every one's) once the host has loaded. `elicits`: whether the
 * client answers elicitations (interactive tools are served to it then).
 */
export async function prepareCall(source: HostSource, request: { name: string; arguments?: Record<string, unknown> }, toolId: string, elicits: boolean, scope?: string): Promise<PreparedCall> {
  const host = source.host;
  await host.whenLoaded();
  const name = resolveToolName(host, request.name, elicits, scope);
  if (name === undefined) return { refused: errorResult(`no tool named "${preview(request.name, 80)}"`) };
  const withdrawn = withdrawnResult(host, name);
  if (withdrawn) return { refused: withdrawn };
  const args = request.arguments ?? {};
  const tool = host.findTool(name);
  return { name, owner: tool?.extension, interactive: tool?.interactive === true, run: (token, panelUi) => host.runToolCall(name, args, { token, toolId, ...(panelUi && { panelUi }) }) };
}

/** Where one request sends a note of the extension whose call it runs. */
export type NoteSender = (level: NotifyLevel, message: string) => void;

/**
 * An extension's notes go to the requests running a call of it (each its
 * progress or its log, as the request asked); a note while none runs goes to
 * `otherwise` (a 2025 session's log; the 2026 revision has no stream for it).
 * Notes of extensions outside `scope` are not heard.
 */
export class NoteRouter {
  private readonly listening = new Map<string, Set<NoteSender>>();
  private readonly sub: { dispose(): void };

  constructor(source: HostSource, scope: string | undefined, otherwise: (note: NoteEvent) => void = () => undefined) {
    this.sub = source.onNote((note) => {
      if (scope !== undefined && note.extension !== scope) return;
      const senders = this.listening.get(note.extension);
      if (!senders?.size) return otherwise(note);
      for (const send of senders) send(note.level, note.message);
    });
  }

  /** Runs `work` with `owner`'s notes going to `send` (none: to `otherwise`, as before). */
  async hear<T>(owner: string | undefined, send: NoteSender | undefined, work: () => Promise<T>): Promise<T> {
    if (owner === undefined || send === undefined) return work();
    const senders = this.listening.get(owner) ?? new Set();
    this.listening.set(owner, senders.add(send));
    try {
      return await work();
    } finally {
      senders.delete(send);
      if (senders.size === 0 && this.listening.get(owner) === senders) this.listening.delete(owner);
    }
  }

  dispose(): void {
    this.sub.dispose();
    this.listening.clear();
  }
}

/**
 * Runs a ready call of the MCP tool `request`. `views`: the client shows MCP
 * Apps views (either revision); an interactive call's panels then show in
 * its view, and in `otherwise` (else the host's own UI, where it has one)
 * when no view asks for them in time. Any other call's panels go to
 * `otherwise`, or the host's own UI.
 */
export async function runViewed(
  call: Exclude<PreparedCall, { refused: CallToolResult }>,
  request: { name: string; arguments?: Record<string, unknown> },
  token: CancellationToken,
  source: HostSource,
  views: AppViews | undefined,
  otherwise?: PanelUI,
): Promise<ToolOutcome> {
  const host = source.host;
  const watched = views && call.interactive ? views.watch(request.name, request.arguments ?? {}, otherwise ?? (host.interactive ? host.panelUi : undefined)) : undefined;
  let how = 'failed';
  try {
    const outcome = await call.run(token, watched?.ui ?? otherwise);
    // Only a watching view is told how the call ended.
    if (watched) how = outcomeLabel(outcome.outcome);
    return outcome;
  } finally {
    watched?.end(how);
  }
}
