/**
 * The one way an MCP `tools/call` reaches the host, for both eras (the 2025
 * sessions of bridge.ts and the 2026 per-request servers of modern.ts): the
 * requested name resolved and checked (unknown, out of scope, withdrawn: an
 * error result before anything is announced), then the host's one door,
 * `runToolCall`, which checks the arguments, announces the call, runs the
 * intercepts and calls. And the one way an extension's notes find the
 * requests whose calls it is handling: NoteRouter.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { preview } from '../../protocol/index.js';
import type { NoteEvent, NotifyLevel, PanelUI, ToolOutcome } from '../../host/index.js';
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
  return { name, owner: host.findTool(name)?.extension, run: (token, panelUi) => host.runToolCall(name, args, { token, toolId, ...(panelUi && { panelUi }) }) };
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
