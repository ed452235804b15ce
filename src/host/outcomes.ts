/**
 * What a call to an extension ended as. Exactly one outcome per call; the
 * message says truthfully what happened, for the model and for the user.
 */
import type { CommandResponseFromExt, ContentBlock } from '../protocol/index.js';

export type Outcome = 'completed' | 'timed_out' | 'canceled' | 'abandoned' | 'not_run' | 'disconnected';

export interface ToolOutcome {
  outcome: Outcome;
  /** The extension that owns (or would have run) the tool; null when no extension has it. */
  extension: string | null;
  /** `completed` with the tool's own `is_error`, or true for every other outcome. */
  isError: boolean;
  /** The blocks as the extension sent them (completed only). */
  content: ContentBlock[];
  /** For anything but a plain completion: what happened, in a sentence. */
  message: string;
}

export interface CommandOutcome {
  outcome: Outcome;
  extension: string | null;
  /** The extension's reply (completed only). */
  response?: CommandResponseFromExt;
  message: string;
}

export function toolOutcome(outcome: Exclude<Outcome, 'completed'>, extension: string | null, message: string): ToolOutcome {
  return { outcome, extension, isError: true, content: [], message };
}

/** Why a delivered call ends without an answer, depending on whether the extension can be told. */
export function stoppedMessage(what: 'canceled' | 'timed_out', told: boolean, timeoutMs?: number): string {
  const lead = what === 'canceled' ? 'canceled' : `timed out after ${formatMs(timeoutMs ?? 0)}`;
  return told
    ? `${lead}; the extension was told to stop`
    : `${lead}; the extension cannot be cancelled (it does not support tool_cancel), so its work may still finish`;
}

export function formatMs(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
