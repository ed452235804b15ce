/**
 * What a call to an extension ended as. Exactly one outcome per call; the
 * message says truthfully what happened, for the model and for the user.
 */
import type { CommandResponseFromExt, ContentBlock, ToolStatus } from '../../protocol/index.js';

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
    /** zot: the result's `structured_content`, when it sent one (never shown to the model). */
    structured?: unknown;
    /** zot: the deferred tools its result activates (`activate_tools`), as sent. */
    activate?: string[];
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
    /** zot's status where the outcome alone does not say it (toolEnding): a guard's block, a refusal inside the tool. */
    ending?: ToolEnding;
  };

/** How a call ended in zot's words, and whether the tool's code was entered (docs/ZOT.md 3.3). */
export interface ToolEnding { status: ToolStatus; executed: boolean }

/**
 * zot's status of a call from its outcome: an answer is `completed`, or
 * `failed` when it is an error; a time-out, a cancel and a lost connection
 * happened while it ran; anything not sent never ran. Where that is not
 * so, the outcome says it (`ending`).
 */
export function toolEnding(o: ToolOutcome): ToolEnding {
  switch (o.outcome) {
    case 'completed': return { status: o.isError ? 'failed' : 'completed', executed: true };
    case 'timed_out': return o.ending ?? { status: 'timed_out', executed: true };
    case 'canceled': case 'abandoned': return o.ending ?? { status: 'cancelled', executed: true };
    case 'disconnected': return o.ending ?? { status: 'failed', executed: true };
    case 'not_run': return o.ending ?? { status: 'failed', executed: false };
  }
}

export type CommandOutcome =
  | { outcome: 'completed'; extension: string; response: CommandResponseFromExt; message: string }
  | { outcome: Unfinished; extension: string | null; message: string };

/** An outcome in words: `not_run` is "not run", `timed_out` "timed out". */
export function outcomeLabel(outcome: Outcome): string {
  return outcome.replace(/_/g, ' ');
}

/** An outcome of a call that got no answer. */
export type UnfinishedOutcome = Extract<ToolOutcome, { outcome: Unfinished }>;

export function toolOutcome(outcome: Unfinished, extension: string | null, message: string): UnfinishedOutcome {
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
