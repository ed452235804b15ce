/**
 * What a call to an extension ended as. Exactly one outcome per call; the
 * message says truthfully what happened, for the model and for the user.
 */
import type { CommandResponseFromExt, ContentBlock } from '../protocol/index.js';

export type Outcome = 'completed' | 'timed_out' | 'canceled' | 'abandoned' | 'not_run' | 'disconnected';
export type Unfinished = Exclude<Outcome, 'completed'>;

export type ToolOutcome =
  | {
    outcome: 'completed';
    extension: string;
    /** The tool's own `is_error`. */
    isError: boolean;
    /** The blocks as the extension sent them. */
    content: ContentBlock[];
    /** Empty, or what was wrong with the answer. */
    message: string;
  }
  | {
    outcome: Unfinished;
    /** The extension that owns (or would have run) the tool; null when no extension has it. */
    extension: string | null;
    isError: true;
    /** Empty, except the reason of an interceptor that blocked the call. */
    content: ContentBlock[];
    /** What happened, in a sentence. */
    message: string;
    /** Canceled, and the extension answered anyway within the caller's wait (ToolCallOptions.lateWithinMs): it finished; the answer was dropped. */
    late?: true;
  };

export type CommandOutcome =
  | { outcome: 'completed'; extension: string; response: CommandResponseFromExt; message: string }
  | { outcome: Unfinished; extension: string | null; message: string };

/** An outcome in words: `not_run` is "not run", `timed_out` "timed out". */
export function outcomeLabel(outcome: Outcome): string {
  return outcome.replace(/_/g, ' ');
}

export function toolOutcome(outcome: Unfinished, extension: string | null, message: string): ToolOutcome {
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
