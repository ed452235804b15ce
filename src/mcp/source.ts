/**
 * What the MCP server modules share: the host they serve (one that VS Code's
 * host manager may replace over time, or a fixed one), and the one way an
 * MCP request's abort signal becomes a host cancellation token.
 */
import { CancellationTokenSource, type CancellationToken } from 'vscode-jsonrpc/node';
import type { HostCalls, NoteEvent } from '../host/index.js';

/** A host that may be replaced over time (VS Code's host manager), or a fixed one. */
export interface HostSource {
  readonly host: HostCalls;
  onDidChangeRegistry(listener: () => void): { dispose(): void };
  /** Every extension's notes, across host replacements. */
  onNote(listener: (note: NoteEvent) => void): { dispose(): void };
}

export function hostSource(h: HostCalls | HostSource): HostSource {
  return 'host' in h ? h : { host: h, onDidChangeRegistry: (l) => h.onDidChangeRegistry(l), onNote: (l) => h.onNote(l) };
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
